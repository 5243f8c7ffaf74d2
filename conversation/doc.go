// Package conversation is a conversation as an adapter (memory.Memory,
// middleware.Model with a store) holds it: its messages and the window of
// them an engine call is given, its copy of the stored state, and the
// protocol by which processes (replicas) sharing a store.Store keep that
// state.
//
// A [Log] holds a conversation's messages with their ids (as
// compact.MessageIDs names them) and token counts, and the window of them
// an engine call is given once a prefix is summarized: [Log.Input] builds
// the call's input, [Log.Advance] moves the window after its Result.
//
// A [Copy] is one process's copy of a conversation's stored state: the
// version it was synced at, the summary chain, whether it holds a change
// the store does not, and its revert point. It is the one writer of chain
// records and of store.State; an adapter fills in its own part (its engine
// session, a record's audit, its history window) through an [Adapter] and
// the [Step] each engine call returns. One revert rule holds for every
// adapter: a change that was not stored is dropped, and the adapter takes
// the revert point (the state as stored at the copy's version) again.
//
// A [Replica] runs each turn of a conversation: the conversation's lock in
// this process (waiting honours the caller's context), a sync that reads
// the stored entry and its version together, the engine under the
// conversation's compaction lease ([NewSummarizeGate]: one summarizer call
// serves every replica), the compacted originals stored before the state,
// and a compare-and-swap save. A conflict or a store failure reverts the
// copy and tries again after a jittered, exponential wait ([Backoff], one
// count for every retry), so a conversation's summary chain is one
// straight line whatever the number of replicas and faults, and a
// compaction that was not stored is never kept.
//
// The package holds no engine rule of its own.
package conversation
