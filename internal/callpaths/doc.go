// Package callpaths finds the file paths a tool call names: the values of
// the path arguments of file tools and the path words of shell commands
// (read with internal/shellwords). It is the one definition of "a path a
// call names" of the module: the evaluation harness (cmd/compact-eval)
// measures the retention of these paths, and the rule-based digest
// (extractors) keeps every one of them. It imports nothing of the module
// but internal/shellwords.
package callpaths
