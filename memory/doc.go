// Package memory is a drop-in schema.Memory for langchaingo that compacts
// the conversation it remembers, keeps every original message, and brings
// back the earlier turns an input asks about.
//
// Swap it in where a ConversationBuffer was:
//
//	import (
//		compact "github.com/agentcompact/compact"
//		"github.com/agentcompact/compact/memory"
//		lcmemory "github.com/tmc/langchaingo/memory"
//	)
//
//	c, err := compact.New(compact.WithModel("gpt-4o"))
//	// mem := lcmemory.NewConversationBuffer()
//	mem, err := memory.NewChecked(c, memory.WithChatHistory(lcmemory.NewChatMessageHistory()))
//	chain := chains.NewConversation(llm, mem)
//
// What you call: [New] or [NewChecked] (the same, with the error of an
// option out of its range at once rather than at the first call), the
// options [WithChatHistory] (any langchaingo history; default an in-memory
// one), [WithStore] and [WithSessionID] (keep the conversation in SQLite or
// PostgreSQL), [WithReturnMessages] (for chat prompts), [WithPromptReserve]
// (the tokens of your prompt template); then what a chain calls
// (LoadMemoryVariables, SaveContext, Clear), and to look inside,
// [Memory.Summaries], [Memory.Stats] and [Memory.RetrievalStats]. What you
// see: until the conversation outgrows the budget, what ConversationBuffer
// returns; then a summary first (a human-role message starting with
// compact.SummaryPreamble), the recent turns verbatim, and for an input that
// asks about an earlier turn, that turn verbatim at the end (a message
// starting with [RetrievedPreamble]), with any history: one that cannot
// search is ranked by the Memory itself.
//
// Until the first compaction a Memory behaves exactly like
// ConversationBuffer; LoadMemoryVariables budgets for the input it is given
// (an input that cannot fit is an error wrapping [ErrInputTooLarge]). More
// options: [WithWindowTurns] (a ConversationWindowBuffer), [WithAsync]
// (compaction in the background), [WithRetrieval] and [WithEmbedder] (the
// earlier turns an input asks about), [WithTurnPolicy] (the policy for plain
// conversations); [Memory.RecallTool] gives an agent the recall tool;
// [Memory.Records] and [Memory.Verify] audit the summary chain. A Memory is
// safe for concurrent use.
//
// docs/memory.md in the repository tells the rest in full: the input
// budget, the conversation policy, retrieval, recall, agents, histories,
// the window the engine is given, audit and stores.
package memory
