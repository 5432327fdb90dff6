#if OpenAPI
    import OpenAPIRuntime
#endif
