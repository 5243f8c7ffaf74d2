// Package sqlitestore is a persistent store for memory.Memory in an
// embedded SQLite database (modernc.org/sqlite: pure Go, no cgo).
//
// One database file holds, per session id:
//
//   - compact_sessions: the state's version (compare-and-swap), the
//     summarized-up-to position and the kept positions before it, the
//     history length it was computed on, and the engine's trigger state
//     (compact.Session JSON);
//   - compact_summaries: the summary chain, one row per record, with its id,
//     parent, depth, mode, summary text, the SHA-256 of the originals it
//     condensed and the whole memory.Record as JSON;
//   - compact_histories and compact_messages: the message history with every
//     field (tool calls with ids and arguments, tool call ids of results),
//     plus the type and content in plain columns for inspection. Messages
//     are stored in memory.MarshalMessage's JSON form, so text that is not
//     valid UTF-8 comes back with each invalid byte as U+FFFD.
//
// Use it as the Memory's store; the Memory then also keeps its history in it:
//
//	store, err := sqlitestore.Open("memory.db")
//	...
//	defer store.Close()
//	mem := memory.New(c, memory.WithStore(store), memory.WithSessionID("user-42"))
//
// Processes may share the file: every write is one IMMEDIATE transaction,
// saves of the state are version compare-and-swaps (a conflicting Memory
// reloads the newer state and redoes its compaction on top of it), and the
// tests kill a writer with SIGKILL at several points to check that nothing
// acknowledged is lost and that the state stays consistent with the history.
package sqlitestore
