// `import ResourceKit` is the one import an app writes: the contract, the built-ins, and the target of each trait
// that is on.
@_exported import ResourceKitBuiltIns
@_exported import ResourceKitCore

#if AsyncHTTPClient
    @_exported import ResourceKitAsyncHTTPClient
#endif
#if HTTPTypes
    @_exported import ResourceKitHTTPTypes
#endif
#if Logging
    @_exported import ResourceKitLogging
#endif
#if Metrics
    @_exported import ResourceKitMetrics
#endif
#if Tracing
    @_exported import ResourceKitTracing
#endif
