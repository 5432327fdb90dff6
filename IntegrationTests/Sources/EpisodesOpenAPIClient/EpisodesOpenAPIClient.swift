// The generator's build plugin writes this target's code from openapi.yaml and openapi-generator-config.yaml: the
// `Components` and `Operations` types and `Client`. They are internal, and the suite imports them with `@testable`:
// generated with `package` or `public` access, their imports warn as unused under Swift 6.3 (the generator silences
// that from Swift 6.4). This file gives the target a source of its own, as SwiftPM requires.
