package extractors

// Default returns a new registry holding every built-in extractor,
// configured by opts. Each call returns a new registry; there is no shared
// global, so registering on one never affects another.
func Default(opts ...RegistryOption) *Registry {
	r := NewRegistry(opts...)
	registerBuiltins(r)
	return r
}

// registerBuiltins registers the built-in extractors on r.
func registerBuiltins(r *Registry) {}
