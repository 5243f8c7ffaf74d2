// Package extractors turns tool outputs into their key facts, per tool.
//
// An [Extractor] summarizes one tool output as a [ToolSummary]; [Format]
// renders it as one compact line such as
//
//	[✓ read_file: File: app/main.go | Lines: 120 | Type: go | Defines: Serve, New]
//
// A [Registry] dispatches on tool names, applies per-tool options, redacts
// secrets and never panics. [Registry.Digest] aggregates a run of dropped
// messages into a [Digest], rendered under a token cap by priority.
package extractors
