import Foundation
import ResourceKitCore
internal import ResourceKitSupport

extension [HeaderField] {
    /// These fields as a cache or a deduplication key compares them, as `[String: String]`'s `keyBytes(excluding:)`
    /// does: the values of a repeated name joined by commas, in order.
    func keyBytes(excluding excluded: String? = nil) -> [[UInt8]: [UInt8]] {
        var key: [[UInt8]: [UInt8]] = [:]
        for field in self where excluded.map({ !sameHeaderName(field.name, $0) }) ?? true {
            let name = [UInt8](asciiLowercased(field.name).utf8)
            if key[name] != nil { key[name]?.append(contentsOf: ", ".utf8) }
            key[name, default: []].append(contentsOf: field.value.utf8)
        }
        return key
    }
}
