// Package sqlitestore is a persistent store for memory.Memory in an
// embedded SQLite database (modernc.org/sqlite: pure Go, no cgo). One file
// holds, per session, the compaction state (version, summarized-up-to
// position, engine trigger state), the audited summary chain, and a
// full-fidelity message history.
package sqlitestore
