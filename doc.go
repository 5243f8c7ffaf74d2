// Package compact keeps the context of long-running langchaingo agents
// within the model's window without forgetting what matters.
//
// A [Compactor] runs the compaction pipeline over the whole message list of
// one conversation, whose state lives in a [Session]:
//
//  1. Count: tokens per message with a real tokenizer (package budget),
//     cached by content, incremental across calls.
//  2. Decide: the ratio is tokens / (window - reserved output). Below the
//     trigger ratio nothing changes; at or above it the session compacts,
//     unless fewer than minMessages (12) messages exist or the cooldown (4
//     messages since the last compaction) has not passed; at or above the
//     emergency ratio (1.0) it always compacts. A compaction aims for the
//     reset ratio, so one long burst triggers once. By default the ratios
//     follow the budget: 0.50 down to 0.15 from 24,000 tokens, 0.90 down
//     to 0.20 below ([WithTrigger]; the specification's 0.80, 0.70 are
//     [SpecTriggerRatio], [SpecResetRatio]).
//  3. Stage 1, mask: old tool outputs outside the preserved tail are replaced
//     by their extractor summary (package extractors), one line of key facts.
//  4. Stage 2, trim and summarize: units (a message, or a tool call with all
//     its results) are dropped by priority, lowest first, oldest first (see
//     [DefaultPriorities]); the dropped messages are summarized (an LLM
//     summarizer when configured, the rule-based digest otherwise or on any
//     failure), folding in the previous summary; one summary message is
//     inserted after the system prompt, with the user role and framed as
//     data ([SummaryPreamble]).
//  5. Stage 3, last resort: shrink the preserved tail down to 2 messages,
//     then cut the largest messages head and tail with a visible marker.
//     Only if what must be kept (the system prompt, the task, the latest
//     user message, the recent tool rounds, never split) cannot fit does
//     Compact return [ErrBudgetTooSmall], naming each part with its tokens.
//  6. Emit an [Event].
//
// The output always satisfies the invariants of the design: it fits the
// budget (I1), tool calls and results stay paired (I2), the leading system
// messages are kept first and verbatim (I3), the latest user message and the
// recent tail are kept verbatim unless stage 3 had to cut them, visibly
// (I4), the caller's slice is never mutated and no original is lost (I5),
// the summarizer's input, output and chain depth are capped (I6), and
// between compactions the output is the previous output plus the newly
// appended messages, so provider prompt caches keep hitting (I7).
//
// Where to read each step: compact.go runs the pipeline; decide.go holds
// the trigger policy; mask.go stage 1; drop.go (what to drop, by the
// priorities of priority.go) and summarize.go (the summary, with
// summaryguard.go's deadline and checks) stage 2; cut.go stage 3; work.go
// is the view of one call that every stage reads and changes, and
// output.go its [Result]. The stages share that view and some helpers, so
// a stage's file is where to start, not all it uses.
//
// # Adapters and windows
//
// A [Result] says what the output did with every input message
// (Result.States: kept, masked, cut or summarized) and where every output
// message comes from (Result.Origin), so an adapter maps the output back to
// its own messages without knowing the engine's rules. An adapter that keeps
// its own history names its messages with [WithMessageIDs] and, once the
// session has summarized messages, may leave them out of later calls with
// [WithOmitted]: the output is the same as for the whole history, and the
// session forgets the omitted ids, so a call's cost follows the window, not
// the conversation. conversation.Log (package conversation) does that
// bookkeeping: it holds the conversation's messages with their ids, builds
// each call's input and moves the window after its Result, keeping tool
// rounds whole as the engine does.
// [WithReserve] keeps room for what the caller sends beside the messages,
// [WithPending] compacts around the caller's next message, and
// [Compactor.PendingFits] says when that message might be cut and should be
// reserved instead. [WithResultInto] has a call fill the caller's Result,
// reusing its arrays, for a loop that is done with each Result before the
// next call. [Compactor.View] shows the session's view without
// compacting. The session keeps the newest records of its summary chain
// ([WithChainRetention]); the whole chain is every Result.Summary. Every
// [Event] reaches the observer: a function set with [WithObserver], or an
// [EventHandler] set with [WithEventHandler], which also gets the context
// of the call that caused it.
//
// Most users do not call Compact directly: they wrap their model with
// package middleware, which compacts every GenerateContent call including
// the tool loop inside one agent run, or swap in package memory, a
// schema.Memory drop-in. Both take a *Compactor.
package compact
