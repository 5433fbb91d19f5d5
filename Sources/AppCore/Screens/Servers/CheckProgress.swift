/// A check of the saved servers in progress.
struct CheckProgress: Sendable, Equatable {
    var done = 0
    var total: Int
}
