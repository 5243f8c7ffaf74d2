// Package callpaths finds the file paths a tool call names: the values of
// the arguments that name a file or a directory, in every argument shape
// (flat, nested objects and arrays at any depth: [PathKey] tells which
// names count), and the path words of shell commands (read with
// internal/shellwords). It is the one definition of "a path a call names"
// of the module: the evaluation harness (cmd/compact-eval) and the
// extractors' corpus measure count these paths, and the rule-based digest
// (extractors) keeps every one of them. [Created] tells which of them a
// call creates (an editor's "create", Write, touch, "> file", ...), for the
// digest's "created" group. It imports nothing of the module
// but internal/shellwords.
package callpaths
