// Package pgstore keeps compact's shared state in PostgreSQL, so that many
// replicas of a service serve one conversation: one [Store] serves both
// adapters, memory.WithStore (the compaction state, the whole summary
// chain with its audit data, and the full-fidelity history with tool calls
// and ids) and middleware.WithStore (the sessions' engine state, with the
// in-process session table as a cache in front of it), and the recall
// tool's originals.
//
//	s, err := pgstore.New(ctx, dsn) // migrates the tables
//	defer s.Close()
//	mem := memory.New(c, memory.WithStore(s), memory.WithSessionID("conversation-42"))
//	llm := middleware.Wrap(model, c, middleware.WithStore(s))
//
// It uses github.com/jackc/pgx/v5 through a pgxpool.Pool and implements
// store.Store, store.HistoryStore (with store.VersionedHistory),
// store.OriginalStore and store.Leaser; it passes storetest.Run.
//
// # Schema
//
// The store owns its tables (prefix [DefaultTablePrefix], or
// [WithTablePrefix]): sessions, summaries, histories, messages, originals
// and leases, and a schema table recording their version. [New] runs
// [Store.Migrate], which applies the versioned migrations a database lacks,
// each in one transaction, under an advisory lock so that replicas starting
// at once migrate once; a database at a newer version is refused. Sessions
// are keyed by the SHA-256 of their id, which is data: any bytes up to
// [MaxSessionIDBytes], passed as a query parameter like every value (no SQL
// is built from data; the table names come from the validated prefix).
// Free text is stored as bytea, exactly as given.
//
// # Concurrency and crash semantics
//
// A Store is safe for concurrent use by goroutines, and any number of
// processes may share the database. Save is a compare-and-swap on the
// session's version in one transaction (the state and its new summary
// records are stored whole or not at all), so two replicas never overwrite
// each other's compaction: the loser gets store.ErrConflict and the
// adapters adopt the newer state. A history append is one statement that
// reserves its positions and writes its messages, so concurrent turns
// never interleave and a turn's input and reply stay together. Everything
// a call acknowledged is committed (durable as the server's settings make
// it); a process killed mid-call leaves the previous state (or, for a
// history write it had already sent, the write applied whole). A compaction
// lease (store.Leaser) is a row with an expiry on the server's clock: a
// replica that dies holding one blocks the others' summarizer only until
// it expires (see conversation.NewSummarizeGate).
//
// # Lost connections and crash semantics of writes
//
// Every call follows one [RetryPolicy] ([WithRetry]; by default it keeps
// trying for [DefaultRetryMaxWait], 5 ms doubling to 250 ms apart, and
// stops when the context ends). Before each retry the pool's idle
// connections are pinged and the dead ones closed, so an outage that ended
// them all costs one try, not one a connection. Reads, searches,
// PutOriginals (a ref already stored keeps its first original), TryLease
// (a retry extends the holder's own lease) and ReleaseLease are safe to
// send twice and are sent again whenever the connection was lost or could
// not be made. A write whose outcome a lost connection may hide (an
// append, Clear, SetMessages, Save) tells three cases apart:
//
//   - The statement was never sent (pgx found the connection dead first,
//     or could not connect): it is sent again.
//   - The server rejected the statement (any SQLSTATE other than a lost
//     connection; a Save's store.ErrConflict): it was rolled back; the
//     error is returned.
//   - The connection was lost after the statement was sent (its backend
//     terminated, SQLSTATE 57P01 or 57P02; a class 08 error; the socket
//     closed), at any statement of a Save's transaction up to and
//     including its commit: the write may have committed. Every write
//     carries a random batch id (the messages of an append hold it, a
//     replace records it on the session's history row, a Save on the
//     session's row: schema versions 3 and 4), so the store reads it back,
//     retrying that read while connections are lost. All the append's
//     messages there, or the row last written by this call: the call
//     returns nil. None there: the same write, with the same batch id, is
//     sent again (a Save compares the version again, so a save that lost
//     to another replica meanwhile gets store.ErrConflict). Some of an
//     append's messages there (only possible when something else edited
//     the rows): an error saying so.
//
// So a write that returns nil is stored exactly once, and one that returns
// an error after an ambiguous failure says whether it was checked. A
// context cancelled mid-statement returns its error unresolved, like
// database/sql, and the write may then have been applied. The check reads
// the committed rows: it settles a terminated backend, which has finished
// (committed or rolled back) by then; after a network failure that leaves
// the server still running the statement, the check may run first and the
// write may then be applied twice. A write that committed and was then
// wiped by another call's Clear or SetMessages before the check is applied
// again, as if it came after that call, which it overlapped.
//
// # Round trips
//
// Load, Version, a history read (with the state's version), an append,
// PutOriginals, Original, SearchOriginals, TryLease and ReleaseLease are
// one statement each: one round trip. Save is four (begin, the version
// check, the writes as one batch, commit). So a middleware call that
// compacts nothing costs one round trip (the version check), a memory turn
// two (read the new messages with the state's version; append the turn),
// and a compaction a bounded few more (lease, save, originals).
//
// Every method takes a context and honours its cancellation. Errors say
// what was attempted and name the server and database, never the DSN's
// password.
package pgstore
