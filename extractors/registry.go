package extractors

import (
	"fmt"
	"strings"
	"sync"

	"github.com/agentcompact/compact/internal/msg"
)

// DefaultMaxFacts is the number of key facts a [Registry] keeps per summary
// unless configured otherwise with [WithMaxFacts] or [WithToolMaxFacts].
const DefaultMaxFacts = 8

// MaxFactBytes is the length cap, in bytes, of one key fact after the
// Registry has cleaned it (one line, valid UTF-8).
const MaxFactBytes = 240

// maxMetaBytes caps each metadata value kept by the Registry.
const maxMetaBytes = 4096

// maxAliasDepth bounds alias chains (and breaks alias cycles).
const maxAliasDepth = 8

// toolConfig is the per-tool configuration of a Registry.
type toolConfig struct {
	maxFacts int // 0: registry default
	verbatim bool
	exclude  bool
}

// Registry maps tool names to extractors. Names are matched
// case-insensitively (langchaingo upper-cases tool names in some agents) and
// after resolving aliases. Unknown tools go to the fallback extractor
// ([Fallback] unless [WithFallback] says otherwise).
//
// A Registry is safe for concurrent use, including concurrent calls to
// [Registry.Register] and [Registry.Alias] while other goroutines extract.
// The zero value is not usable: build one with [NewRegistry] or [Default].
type Registry struct {
	mu         sync.RWMutex
	extractors map[string]Extractor
	aliases    map[string]string
	tools      map[string]toolConfig
	maxFacts   int
	fallback   Extractor
	shapes     []shapeRule
	results    *resultCache
}

// RegistryOption configures a [Registry] at construction.
type RegistryOption func(*Registry)

// WithMaxFacts sets how many key facts a summary keeps (default
// [DefaultMaxFacts]); n <= 0 leaves the default.
func WithMaxFacts(n int) RegistryOption {
	return func(r *Registry) {
		if n > 0 {
			r.maxFacts = n
		}
	}
}

// WithToolMaxFacts sets how many key facts the summaries of tool name keep,
// overriding [WithMaxFacts] for that tool; n <= 0 leaves the default.
func WithToolMaxFacts(name string, n int) RegistryOption {
	return func(r *Registry) {
		if n <= 0 {
			return
		}
		k := normName(name)
		c := r.tools[k]
		c.maxFacts = n
		r.tools[k] = c
	}
}

// WithVerbatim marks tools whose outputs are kept verbatim: [Registry.Verbatim]
// reports true for them and the engine never masks their outputs.
// [Registry.Extract] still summarizes them when asked (the rule-based digest
// uses it).
func WithVerbatim(names ...string) RegistryOption {
	return func(r *Registry) {
		for _, n := range names {
			k := normName(n)
			c := r.tools[k]
			c.verbatim = true
			r.tools[k] = c
		}
	}
}

// WithExclude marks tools whose outputs carry nothing worth keeping once
// they are old (directory listings, progress chatter, ...): their outputs
// are still masked, but [Registry.Extract] skips extraction and returns a
// summary holding only the output size ("output dropped: 12 lines, 340 B")
// and the detected status. Excluded is the opposite of verbatim; a tool
// marked both is kept verbatim.
func WithExclude(names ...string) RegistryOption {
	return func(r *Registry) {
		for _, n := range names {
			k := normName(n)
			c := r.tools[k]
			c.exclude = true
			r.tools[k] = c
		}
	}
}

// WithAlias makes tool alias use the extractor and options of tool name, as
// [Registry.Alias] does.
func WithAlias(alias, name string) RegistryOption {
	return func(r *Registry) { r.aliases[normName(alias)] = normName(name) }
}

// WithFallback replaces the extractor used for unknown tools (default
// [Fallback]). A nil e leaves the default.
func WithFallback(e Extractor) RegistryOption {
	return func(r *Registry) {
		if e != nil {
			r.fallback = e
		}
	}
}

// NewRegistry returns an empty registry (no built-in extractors) with the
// generic [Fallback] for every tool, configured by opts.
func NewRegistry(opts ...RegistryOption) *Registry {
	r := &Registry{
		extractors: make(map[string]Extractor),
		aliases:    make(map[string]string),
		tools:      make(map[string]toolConfig),
		maxFacts:   DefaultMaxFacts,
		fallback:   Func(fallbackExtract), // Extract redacts what it returns (finish)
		results:    newResultCache(),
	}
	for _, o := range opts {
		if o != nil {
			o(r)
		}
	}
	return r
}

// normName is the registry key of a tool name: trimmed and lower-cased.
func normName(name string) string {
	return strings.ToLower(strings.TrimSpace(name))
}

// Register sets the extractor of tool name (case-insensitive), replacing
// any previous one. A nil e removes the registration, so the tool goes to
// the fallback. Safe for concurrent use.
func (r *Registry) Register(name string, e Extractor) {
	k := normName(name)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.results.reset()
	if e == nil {
		delete(r.extractors, k)
		return
	}
	if r.extractors == nil { // a zero Registry
		r.extractors = make(map[string]Extractor)
	}
	r.extractors[k] = e
}

// Alias makes tool alias resolve to tool name: alias then uses name's
// extractor and per-tool options unless it has its own registration.
// Aliases may chain; cycles are cut after a few steps. Safe for concurrent
// use.
func (r *Registry) Alias(alias, name string) {
	a, n := normName(alias), normName(name)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.results.reset()
	if a == n {
		delete(r.aliases, a)
		return
	}
	if r.aliases == nil { // a zero Registry
		r.aliases = make(map[string]string)
	}
	r.aliases[a] = n
}

// resolve returns the names to try for name, most specific first: name
// itself, then its alias targets. Callers hold r.mu (read).
func (r *Registry) resolve(name string) []string {
	k := normName(name)
	out := []string{k}
	for i := 0; i < maxAliasDepth; i++ {
		n, ok := r.aliases[k]
		if !ok {
			break
		}
		k = n
		out = append(out, k)
	}
	return out
}

// Lookup returns the extractor registered for name (case-insensitive,
// aliases resolved) and whether there is one; it does not return the
// fallback. Safe for concurrent use.
func (r *Registry) Lookup(name string) (Extractor, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, k := range r.resolve(name) {
		if e, ok := r.extractors[k]; ok {
			return e, true
		}
	}
	return nil, false
}

// config returns the effective per-tool configuration of name.
func (r *Registry) config(name string) toolConfig {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var c toolConfig
	for _, k := range r.resolve(name) {
		t, ok := r.tools[k]
		if !ok {
			continue
		}
		if c.maxFacts == 0 {
			c.maxFacts = t.maxFacts
		}
		c.verbatim = c.verbatim || t.verbatim
		c.exclude = c.exclude || t.exclude
	}
	if c.maxFacts == 0 {
		c.maxFacts = r.maxFacts
	}
	return c
}

// Verbatim reports whether the outputs of tool name are configured to be kept
// verbatim ([WithVerbatim]); the engine then never masks them. Safe for
// concurrent use.
func (r *Registry) Verbatim(name string) bool {
	return r.config(name).verbatim
}

// Extract summarizes output, the result of call. It dispatches on the
// call's tool name (case-insensitive, aliases resolved) to the registered
// extractor or to the fallback, applies the per-tool options (max facts,
// exclusion), cleans every fact to one line of valid UTF-8 of at most
// [MaxFactBytes] bytes, and redacts secrets ([Redact]) in facts and metadata.
// It never panics: an extractor that panics is replaced by the fallback for
// that call. The returned summary is new and owned by the caller. Results
// of recent calls are cached (extractors must be deterministic; Register and
// Alias clear the cache), so extracting the same output again is cheap. Safe
// for concurrent use.
func (r *Registry) Extract(call Call, output string) ToolSummary {
	if r.results == nil {
		return r.extract(call, output)
	}
	k := r.results.key(call, output)
	if s, ok := r.results.get(k); ok {
		return s
	}
	s := r.extract(call, output)
	r.results.put(k, s)
	return s
}

func (r *Registry) extract(call Call, output string) ToolSummary {
	cfg := r.config(call.Name)
	var s ToolSummary
	if cfg.exclude && !cfg.verbatim {
		s = dropped(call, output)
	} else {
		e, ok := r.Lookup(call.Name)
		if !ok {
			e, ok = r.byShape(call)
		}
		if !ok {
			r.mu.RLock()
			e = r.fallback
			r.mu.RUnlock()
		}
		var panicked bool
		s, panicked = safeExtract(e, call, output)
		if panicked {
			s, panicked = safeExtract(r.fallback, call, output)
			if panicked {
				s = dropped(call, output)
			}
		}
		s = enrich(s, output)
	}
	return finish(s, call, cfg.maxFacts)
}

// safeExtract runs e and reports whether it panicked.
func safeExtract(e Extractor, call Call, output string) (s ToolSummary, panicked bool) {
	defer func() {
		if p := recover(); p != nil {
			s, panicked = ToolSummary{}, true
		}
	}()
	if e == nil {
		return ToolSummary{}, true
	}
	return e.Extract(call, output), false
}

// dropped is the summary of an excluded tool: size and status only.
func dropped(call Call, output string) ToolSummary {
	lines := CountLines(output)
	return ToolSummary{
		Tool:   call.Name,
		Status: detectStatus(output),
		KeyFacts: []string{
			fmt.Sprintf("output dropped: %d lines, %s", lines, humanBytes(len(output))),
		},
		Metadata: map[string]string{MetaLines: itoa(lines), MetaBytes: itoa(len(output))},
	}
}

// finish normalizes a summary: tool name, status, cleaned, redacted and
// capped facts, redacted metadata copy.
func finish(s ToolSummary, call Call, maxFacts int) ToolSummary {
	out := ToolSummary{Tool: cleanLine(s.Tool, 60), Status: s.Status}
	if out.Tool == "" {
		out.Tool = cleanLine(call.Name, 60)
	}
	if out.Tool == "" {
		out.Tool = "tool"
	}
	switch out.Status {
	case StatusSuccess, StatusError, StatusPartial:
	default:
		out.Status = StatusSuccess
	}
	if maxFacts <= 0 {
		maxFacts = DefaultMaxFacts
	}
	for _, f := range s.KeyFacts {
		if len(out.KeyFacts) >= maxFacts {
			break
		}
		// Redact before cutting so a secret is never half-kept, and after
		// cleaning, which joins lines.
		if len(f) > MaxFactBytes {
			f = Redact(msg.HeadBytes(f, 4*MaxFactBytes))
		}
		if f = Redact(cleanLine(f, MaxFactBytes)); f != "" {
			out.KeyFacts = append(out.KeyFacts, f)
		}
	}
	if len(s.Metadata) > 0 {
		out.Metadata = make(map[string]string, len(s.Metadata))
		for k, v := range s.Metadata {
			v = strings.ToValidUTF8(msg.HeadBytes(v, maxMetaBytes), "\uFFFD")
			if !isDigits(v) {
				v = Redact(v)
			}
			out.Metadata[k] = v
		}
	}
	return out
}
