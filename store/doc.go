// Package store is the contract between the adapters (memory.Memory, the
// middleware) and the places that keep their sessions: one contract,
// implemented by every store, checked by the conformance harness
// store/storetest.
//
// It has three parts; a store implements the first and any of the others:
//
//   - [Store]: the compaction state of sessions ([State], with the summary
//     chain and its audit data, one [Record] a link), saved by version
//     compare-and-swap ([ErrConflict]) and appended to from a chain index,
//     so a compaction writes only its new records. memory.Memory keeps its
//     state there, and the middleware its sessions' engine state; they
//     share one namespace of session ids.
//   - [HistoryStore]: the full-fidelity message history of each session
//     ([IncrementalHistory]: read from a position with an epoch, appended
//     to one turn at a time, atomically). Histories kept as bytes use
//     [MarshalMessage] and [UnmarshalMessage].
//   - [OriginalStore]: the originals of what compactions masked, cut or
//     summarized ([Original]), for the recall tool: by ref ([ErrNotFound]
//     when absent) and by a literal, case-insensitive search of their text
//     ([FoldCase]).
//
// [Memory] implements all three in the process's memory and is
// memory.Memory's default; store/sqlitestore implements them in an embedded
// SQLite file, and store/pgstore in PostgreSQL, with leases ([Leaser]) for
// replicas sharing conversations. [HeldOriginals] is the one in-memory set
// of originals (the Memory store's, and the middleware's per session).
//
// The package is a leaf of the module: of this module it imports only the
// summary record's leaf package, summary/record (record.Record, which
// summary.Record and compact.SummaryRecord alias), internal/refid (the
// grammar of a ref) and internal/idtext (how an error text quotes an id);
// of its drivers, store/pgstore adds internal/ctxsleep (the wait between
// retries). None of them imports the engine, the tokenizer, the extractors
// nor the prompts (a test checks it). The protocol by which the
// adapters share a conversation's state through a Store (sync, lease,
// compare-and-swap save, retries), and the one writer of the State and its
// chain records, are package conversation's.
//
// Every interface documents its concurrency and crash semantics in the way
// database/sql drivers do: implementations are safe for concurrent use,
// every write is atomic (stored whole or not at all, also when the process
// is killed during it), every method takes a context and honours its
// cancellation (an error wrapping the context's error; nothing written),
// and nothing the caller passes in is retained nor anything returned shared.
package store
