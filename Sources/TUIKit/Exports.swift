// Display width and alignment live in TextWidth, shared with NetParsers' table formatter so the CLI and the
// interface lay out text the same way; TUIKit's users see them as part of the toolkit.
@_exported import TextWidth
