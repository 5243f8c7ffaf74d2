// Package sqlitestore is a persistent store in an embedded SQLite database
// (modernc.org/sqlite: pure Go, no cgo). It implements the three contracts
// of package store: store.Store (sessions' compaction state),
// store.HistoryStore (full-fidelity message histories) and
// store.OriginalStore (originals for recall), and passes storetest.Run.
//
// One database file holds, per session id:
//
//   - compact_sessions: the state's version (compare-and-swap), the
//     summarized-up-to position and the kept positions before it, the
//     history length it was computed on, and the engine's trigger state
//     (compact.Session JSON);
//   - compact_summaries: the summary chain, one row per record, with its id,
//     parent, depth, mode, summary text, the SHA-256 of the originals it
//     condensed and the whole store.Record as JSON;
//   - compact_histories and compact_messages: the message history with every
//     field (tool calls with ids and arguments, tool call ids of results),
//     plus the type and content in plain columns for inspection. Messages
//     are stored in store.MarshalMessage's JSON form, so text that is not
//     valid UTF-8 comes back with each invalid byte as U+FFFD (as do the
//     records' texts);
//   - compact_messages_fts: an FTS5 index of the messages' content (the
//     porter tokenizer over unicode61: words match their English stems),
//     kept by triggers, which History.Search (store.Searcher) ranks with
//     bm25;
//   - compact_originals: the originals, in insertion order, with their text
//     as given and its store.FoldCase form, which searches match with instr
//     on bytes (the query is never a pattern).
//
// The store owns its schema: compact_schema records its version
// ([SchemaVersion]), and [Open] migrates an older file in place, in one
// transaction (a file written before versioning, without compact_schema,
// is version 0 with the tables of version 1). Every statement takes its
// values as parameters.
//
// Use it as the Memory's store; the Memory then also keeps its history in it:
//
//	s, err := sqlitestore.Open("memory.db")
//	...
//	defer s.Close()
//	mem := memory.New(c, memory.WithStore(s), memory.WithSessionID("user-42"))
//
// Processes may share the file: every write is one IMMEDIATE transaction,
// saves of the state are version compare-and-swaps (a conflicting Memory
// reloads the newer state and redoes its compaction on top of it), and the
// tests kill a writer with SIGKILL at several points to check that nothing
// acknowledged is lost and that the state stays consistent with the history.
package sqlitestore
