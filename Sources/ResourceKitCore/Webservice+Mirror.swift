import Foundation
internal import ResourceKitSupport

extension Webservice: CustomReflectable {
    /// The web service as `dump` and `print` show it: its ``baseURL`` without userinfo or credential query values, and
    /// its ``layers``.
    public var customMirror: Mirror {
        let baseURL = self.baseURL.map { Redaction.redacted($0) ?? URL(string: "REDACTED")! }
        return Mirror(self, children: ["baseURL": baseURL as Any, "layers": layers], displayStyle: .struct)
    }
}
