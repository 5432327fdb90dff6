import ResourceKitCore
internal import ResourceKitSupport
/// A coding key made at run time, for the keys and indices of a decoding path and for probing a container's kind.
struct AnyCodingKey: CodingKey, Hashable {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
