import Testing
import NetParsers

@Suite struct JSONIndenterTests {
    @Test func oneDocumentIsIndentedKeepingKeyOrderNumbersAndStrings() {
        let json = #"[{"z":1,"a":[1.50,{"s":"x, \"y\": [z]"}],"e":{},"f":[]}]"#
        #expect(JSONIndenter.indent(Array(json.utf8)) == """
            [
              {
                "z": 1,
                "a": [
                  1.50,
                  {
                    "s": "x, \\"y\\": [z]"
                  }
                ],
                "e": {},
                "f": []
              }
            ]

            """)
    }

    @Test func realIPAddrJSONIndentsAndAnythingElseIsLeftAlone() throws {
        let fixture = try Fixture.bytes("linux/ip-j-addr.out")
        let indented = try #require(JSONIndenter.indent(fixture))
        #expect(indented.split(separator: "\n").count > 20)
        #expect(indented.contains(#"    "ifname": "lo","#))
        for text in ["not json", "{\"a\":1} {\"b\":2}", "{\"a\":", "42", "\"text\"", ""] {
            #expect(JSONIndenter.indent(Array(text.utf8)) == nil, "\(text)")
        }
    }
}
