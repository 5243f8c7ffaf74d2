// Package redact removes secrets from text: [Secrets] replaces API keys,
// tokens, private key blocks, passwords in URLs and credentials assigned
// to secret-named keys by "[REDACTED:kind]"; [SecretValues] lists the
// values it removes, and [Values] also clears their bare repeats. It is
// the redaction of the tool extractors (package extractors) and of every
// summary (package summary), and imports nothing of this module but the
// leaf internal/reclass (RE2's \s, which its hand-written conditions share
// with its expressions).
package redact
