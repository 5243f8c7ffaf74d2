// Package conversation is the one owner of a conversation's shared state:
// the protocol by which the adapters (memory.Memory and middleware.Model
// with a store) keep a conversation in a store.Store that several
// processes (replicas) share.
//
// A [Replica] runs each turn of a conversation: the conversation's lock in
// this process (waiting honours the caller's context), a sync that reads
// the stored entry and its version together, the engine under the
// conversation's compaction lease ([NewSummarizeGate]: one summarizer call
// serves every replica), the compacted originals stored before the state,
// and a compare-and-swap save. A conflict or a store failure reverts the
// adapter's copy to the stored state and tries again after a jittered,
// exponential wait ([Backoff], one count for every retry), so a
// conversation's summary chain is one straight line whatever the number of
// replicas and faults, and a compaction that was not stored is never kept.
//
// An adapter gives its copy of the state as a [Local]: what version it is
// at, how it adopts a stored state, how it runs the engine (Step), and how
// it drops what the store does not hold (Revert). The package holds no
// engine rule of its own.
package conversation
