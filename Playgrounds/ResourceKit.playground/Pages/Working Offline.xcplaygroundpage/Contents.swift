//: [Previous](@previous)
//:
//: # Working offline
//:
//: A `ResponseCache` keeps the responses the server allows, and a resource's `cachePolicy` says how much freshness
//: to trade for an answer when the network is gone. This page switches a stub server off and on; the rules are in the
//: "Working Offline" article.
import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

//: ## A server that can go away
//:
//: The stub answers with the episodes, fresh for 60 seconds, until `online` is switched off; then every request fails
//: as it would without a network.
let online = Switch(true)
let server = StubTransport { _ in
    guard online.isOn else { throw URLError(.notConnectedToInternet) }
    return StubResponse(
        headers: ["Content-Type": "application/json", "Cache-Control": "max-age=60"],
        body: #"[{"id": "1", "title": "Networking"}]"#)
}

//: ## A cache on disk
//:
//: `ResponseCache(directory:byteLimit:)` keeps each response in a file of its own, so the answers outlive the
//: process; `ResponseCache(byteLimit:)` keeps them in memory. The clock is the page's own, to step past `max-age`.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("playground-\(UUID().uuidString)")
let clock = PageClock()
let cache = try ResponseCache(directory: directory, byteLimit: 1_000_000, now: { clock.now })
let events = EventLog()
let webservice = Webservice(transport: server, cache: cache, observer: { events.add($0) })

let episodes = try await webservice.load(Episode.all)
check(episodes.count == 1, "the first load goes to the server, and its response is stored")
check(await cache.count == 1, "one response on disk")

//: ## HTTP's rules, then the caller's
//:
//: Two minutes later, offline, the stored response is stale. Under the default policy, `.http`, a stale response
//: doesn't answer (unless the server sent `stale-if-error`), so the load fails:
clock.advance(120)
online.isOn = false
let failure = await webserviceError { try await webservice.load(Episode.all) }
check((failure.underlyingError as? URLError)?.code == .notConnectedToInternet, "HTTP's rules: the failure answers")

//: `.networkElseStored` asks the server first and answers with the stored response when it can't:
var feed = Episode.all
feed.cachePolicy = .networkElseStored
check(try await webservice.load(feed) == episodes, "networkElseStored: the stored response answers offline")

//: `.storedOnly` never goes to the network; `.storedElseNetwork` only when nothing is stored:
feed.cachePolicy = .storedOnly
check(try await webservice.load(feed) == episodes, "storedOnly: the stored response, whatever its age")

//: Each answer from the cache is an event with the policy and how stale the answer was:
print(events.descriptions.joined(separator: "\n"))
check(
    events.descriptions.filter { $0.contains("answered from the cache") }.count == 2,
    "two answers from the cache, each reported")
check(events.descriptions.last?.hasSuffix("(storedOnly), 60 s stale") == true, "60 seconds past its max-age")

try? FileManager.default.removeItem(at: directory)
allChecksPassed("Working Offline")
