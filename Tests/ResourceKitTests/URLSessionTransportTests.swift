import Foundation
import Testing

@testable import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The settings of the `URLSession` behind `Webservice()`.
@Suite struct URLSessionTransportTests {
    @Test func defaultConfigurationKeepsNoURLCacheAndNoCookies() {
        let configuration = URLSessionConfiguration.resourceKitDefault
        #expect(configuration.urlCache == nil)
        #expect(configuration.httpCookieStorage == nil)
        #expect(configuration.httpCookieAcceptPolicy == .never)
        #expect(configuration.httpShouldSetCookies == false)
        let connections = URLSessionConfiguration.default.httpMaximumConnectionsPerHost
        #expect(configuration.httpMaximumConnectionsPerHost == connections)
    }
}
