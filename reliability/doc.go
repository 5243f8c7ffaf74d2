// Package reliability holds the cross-package reliability and security
// suite of compact: fuzzing of the public entry points with invariant
// oracles, a soak test with injected faults, crash tests of SQLite-backed
// compaction, the bad-input catalogue, the secret-leak corpus and the
// prompt-injection checks. It has no API: everything is in its tests.
package reliability
