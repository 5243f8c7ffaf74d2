// Package toolfacts gives an extractor registry the shape of
// summary.Extractors, so that the engine can hand its registry to a
// summarizer without package summary importing package extractors.
package toolfacts

import (
	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/summary"
)

// Registry condenses tool outputs with Reg (extractors.Default() when nil).
// It implements [summary.Extractors]; a summarizer that needs more of the
// registry than Condense (the rule digest) recovers Reg with a type
// assertion.
type Registry struct {
	Reg *extractors.Registry
}

// Condense returns output unchanged for a tool the registry keeps verbatim,
// else the one-line form of its key facts (extractors.Format).
func (r Registry) Condense(name, arguments, output string) string {
	reg := r.Reg
	if reg == nil {
		reg = extractors.Default()
	}
	if reg.Verbatim(name) {
		return output
	}
	return extractors.Format(reg.Extract(extractors.Call{Name: name, Arguments: arguments}, output))
}

// Of returns the registry behind e (a request's Extractors) when e is a
// Registry with one, else fallback.
func Of(e summary.Extractors, fallback *extractors.Registry) *extractors.Registry {
	if r, ok := e.(Registry); ok && r.Reg != nil {
		return r.Reg
	}
	return fallback
}

var _ summary.Extractors = Registry{}
