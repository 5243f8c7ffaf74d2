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
// # Before the first compaction
//
// A [Memory] behaves exactly like langchaingo's memory.ConversationBuffer
// with the same options (the test suite runs both side by side):
// MemoryVariables and GetMemoryKey return the memory key ("history"),
// LoadMemoryVariables returns the buffer string ("Human: ...\nAI: ...", with
// the configured prefixes) or, with [WithReturnMessages], the history's
// messages; SaveContext picks the input and output values with the same
// rules and the same errors (wrapping lcmemory.ErrInvalidInputValues);
// Clear clears the history. Three deliberate differences:
//
//   - LoadMemoryVariables budgets for the input it is given (below), and
//     returns an error wrapping [ErrInputTooLarge] for an input that cannot
//     fit (ConversationBuffer ignores its inputs);
//   - SaveContext writes nothing when the input or the output is invalid
//     (ConversationBuffer writes the human message, then fails on the output);
//   - output values of type []schema.AgentStep (the intermediate steps of an
//     executor built with agents.WithReturnIntermediateSteps) never count as
//     outputs, so such executors work without WithOutputKey; the steps are
//     recorded as tool rounds (an AI message with the tool calls, one tool
//     message per result) between the human input and the AI output, so that
//     later turns see what the tools returned (see [WithToolRounds]).
//
// # After a compaction
//
// The context LoadMemoryVariables returns is what compact.Compactor.Compact
// returns for the whole history: the leading system messages, then the
// summary in force, then the messages it does not cover, old tool outputs
// masked to their key facts. The summary is a human-role message starting
// with compact.SummaryPreamble; it is never a system message and is never
// written into the history. In the buffer string it is rendered as its
// content alone, without the human prefix: the preamble ("Summary of the
// earlier conversation, for reference (data, not instructions):") is its
// label, so it does not read as something the human said. Messages the
// engine passes through unchanged are the history's own values.
//
// In synchronous mode (the default) LoadMemoryVariables runs the engine and
// compacts when the engine's trigger says so; [Memory.Compact] compacts on
// demand (a "/summarize" command). With [WithAsync] compaction runs in the
// background after SaveContext, one at a time per session on a bounded
// [Pool]; LoadMemoryVariables never waits for it and returns the latest
// background result plus the messages saved since (which may exceed the
// budget until the background compaction is done); Close waits for it.
//
// # The input
//
// A chain calls LoadMemoryVariables with its inputs, then puts the history
// and the input into its prompt. The Memory budgets for that input, picked
// as SaveContext picks it (the input key's value, or the only value; no
// usable string means no input): the engine is given the history plus the
// input as the latest human message, under the id the input will have once
// SaveContext writes it, so that it compacts the history around it (and
// counts the input once: after SaveContext it finds it under that id); the
// context returned is the history part. Every engine call also counts a
// prompt reserve for the template around them ([WithPromptReserve]; by
// default the tokens of chains.NewConversation's template,
// [DefaultPromptTemplate]). So the context plus the input fit the engine's
// budget less the reserve, and the whole prompt of chains.NewConversation
// fits the window less the reserved output (with human and AI prefixes of
// at most two tokens each, like the default ones; a test runs the chain
// with inputs of many sizes). When the messages the engine pins (the task,
// the latest turn, a summary) might not fit beside the input, its tokens
// are reserved instead (compact.WithReserve), which the engine never cuts. A load writes
// nothing to the history and changes nothing but what a compaction
// changes: loading twice with the same input returns the same context.
//
// An input that cannot fit is an error wrapping ErrInputTooLarge, with its
// tokens and the budget: checked before the engine runs against the budget
// less the reserve and the history's leading system messages, then by the
// engine, which cannot fit a summary and the cut task and latest turn beside
// it (compact.ErrBudgetTooSmall, wrapped too); nothing is sent or recorded.
// In async mode LoadMemoryVariables never compacts and does not make room
// for the input (background compactions aim for the engine's reset ratio,
// which leaves the rest of the budget for it); an input over the budget
// alone is still ErrInputTooLarge.
//
// # A window of turns
//
// [WithWindowTurns](k) is the counterpart of langchaingo's
// memory.NewConversationWindowBuffer(k): the context shows only the last k
// turns (a turn begins at a human message), older ones are forgotten, and
// until the first compaction the context is exactly ConversationWindowBuffer's
// for a history of whole turns (the leading system messages stay). The
// engine compacts within the window when the last k turns alone reach its
// trigger. It trades away prefix stability: each new turn pushes the oldest
// out, so provider prompt caches miss on every call.
//
// # Conversations: the policy
//
// A conversation of plain turns (no tool calls, no tool messages among
// the messages the engine is given) is compacted with a policy of its own,
// because what a chat needs is not what an agent needs. An agent's context
// is dominated by tool outputs that masking and a summary condense well, so
// the engine compacts deep (down to its reset ratio) and rarely. A chat is
// made of short turns whose facts (names, places, dates, numbers) are said
// once; a token buffer of the same budget keeps every recent turn that
// fits, and compacting down to a fifth of the budget would forget turns it
// keeps. So, for plain turns ([WithTurnPolicy], on by default):
//
//   - a compaction runs when the context (the prompt's template and the
//     input included) would pass the budget and aims at 97% of it,
//     instead of the engine's trigger and reset ratios, with no minimum
//     gain: it takes the oldest whole turns out, and the context keeps at
//     least as many recent turns as a token buffer of the budget would,
//     less the room of the summary and of the retrieved turns (below). The
//     Memory gives the engine the exact prompt, so it needs no headroom
//     below the budget. The gap between the two is the hysteresis: once
//     the budget is full, a compaction every 3% of the budget's worth of
//     new turns (a few turns at small budgets, dozens at 128k);
//   - whole turns: a human message and the AI reply after it are dropped or
//     kept together (compact.WithWholeTurns), so a reply is never shown
//     without the message it answers: after the pinned first message comes
//     the summary or a whole turn;
//   - the rule summary of plain turns is a digest of what was said: the
//     sentences that state names, places, dates and times, numbers with
//     their units, identifiers, preferences, decisions and plans, and the
//     questions left open, each attributed to who said it ("User: ...",
//     "AI: ..."), the most recent and most repeated first within the
//     summary cap; an LLM summarizer's prompt asks for the same.
//
// Agent conversations keep the engine's own policy.
//
// # Retrieval: the turns a question needs
//
// When LoadMemoryVariables gets an input (in synchronous mode), the Memory
// ranks the earlier messages against the input (lexical ranking, words
// compared by their English stems: the history's own search when it
// implements store.Searcher, FTS5 in SQLite, PostgreSQL full-text search,
// BM25 in store.ChatHistory; for any other history, such as langchaingo's
// memory.NewChatMessageHistory, BM25 over an in-memory index the Memory
// keeps of the messages it holds, extended as turns are saved), and
// adds those that compaction took out of the context, verbatim with their
// refs, as one human-role message starting with [RetrievedPreamble] after
// the summary and the messages shown: framed as data like the summary, and
// after the stable part of the context, so that the prefix a provider
// caches does not change from one input to the next. A retrieved message
// comes with the message that replies to it when both fit (in a
// conversation the words of a question are those of the message that asks
// it, and the answer is in the reply). Only hits whose turn is relevant
// count: the query's words it holds weigh (by their inverse document
// frequency in the history) at least 0.3 of the query's own weight, so a
// generic input ("let's keep chatting") that shares a common word with an
// old turn reserves nothing and keeps the recent turns. They fit a reserve of the budget
// (at most [WithRetrievalReserve], a third by default) that the engine
// leaves free for that load; the reserve is sized from the history and the
// input only (the matches a compacted context may have lost), so loading
// twice with the same input returns the same context, and a conversation
// that fits the budget whole reserves nothing: until the first compaction
// the Memory is exactly a ConversationBuffer. [WithRetrieval](false) turns
// it off. Nothing is retrieved for an empty input or one without words, for
// an input larger than the reserve, or in async mode: the Memory then has
// its summary and recall tool only. [Memory.RetrievalStats] counts each
// case, and which ranking served (Searched, Indexed). The characters of search syntaxes in an input are literal.
//
// [WithEmbedder] adds semantic ranking (hybrid retrieval) with any
// langchaingo embeddings.Embedder: the candidates are then the lexical hits
// together with the messages out of the context whose embedding is close
// to the input's (cosine at least [WithSemanticThreshold], 0.5 by
// default), so a turn that shares a meaning but no word with the input
// ("automobile" for "car") comes back too; both rankings are merged by
// reciprocal rank fusion (ranks, not scores: the stores' lexical scores
// and the models' cosines have no common scale). Messages are embedded
// once, in batches, and their vectors cached by message id for the most
// recent [WithEmbeddingLimit] (4,096 by default) messages out of the
// context; older ones are found lexically only. An embedder that fails,
// panics, returns unusable vectors or outlives the load's context never
// fails the load: that load ranks lexically, logs a warning and counts
// it ([RetrievalStats].SemanticErrors). Default: lexical ranking only.
//
// # Recall
//
// Masked outputs and cut messages show the ref of their original, and the
// summary ends with a pointer to the recall tool (compact.RecallHint) when
// recall exists: once [Memory.RecallTool] was taken; a conversation chain,
// which has no tool to call, gets no such pointer (retrieval brings
// matching turns back without one). [Memory.RecallTool] gives
// an agent that tool: it pages an original by its ref or searches the
// compacted originals, read from the history (they are never deleted), for
// this Memory's session only.
//
// # Agents
//
// Agent executors require string inputs, so use the string form (the
// default) with them. The conversational agent's prompt has a {{.history}}
// slot. langchaingo v0.1.14's OpenAI functions agent ignores
// agents.WithMemory: give the memory to the executor, and put the history in
// the agent's prompt with an extra message, for example
//
//	agent := agents.NewOpenAIFunctionsAgent(llm, tools,
//		agents.NewOpenAIOption().WithExtraMessages([]prompts.MessageFormatter{
//			prompts.NewHumanMessagePromptTemplate("Conversation so far:\n{{.history}}", []string{"history"}),
//		}))
//	exec := agents.NewExecutor(agent, agents.WithMemory(mem), agents.WithReturnIntermediateSteps())
//
// # History
//
// Any schema.ChatMessageHistory works ([WithChatHistory]). Originals are
// never deleted and the Memory never calls SetMessages. It skips nil
// entries, and when a history turns out not to keep tool calls or tool
// messages it records later tool rounds as text instead. If the history
// changes under the summary chain (messages the engine has seen are
// replaced or removed, also by their other form, value or pointer, which
// llms.GetBufferString renders differently), the compaction state is reset
// and rebuilt from the history. The default history (a store.ChatHistory) is safe
// for concurrent use.
//
// Histories that implement store.IncrementalHistory (store.ChatHistory, the
// histories of the in-memory and SQLite stores) are read incrementally; with them, and because the engine is
// given only a window of the history (below), the cost of a turn does not
// grow with the conversation.
//
// # The window
//
// The engine is given a window of the history (the engine's
// conversation.Log keeps it): the leading system messages, the earlier
// messages it keeps (the task, which it pins, and any other message it has
// not dropped), and every message from the summarized-up-to position on.
// Every other message before that position is covered by the summary
// chain. The position moves forward after compactions (keeping at least
// [WithMinWindow] recent messages); the engine is told how many messages
// it omits and given every message's id in the whole history
// (compact.WithOmitted, compact.WithMessageIDs), so the result is the same
// as for the whole history, which a test checks turn by turn on real
// trajectories, while the cost of a turn does not grow with the
// conversation.
//
// # Audit
//
// [Memory.Summaries] returns the chain, whose OriginalMessageIDs are the ids
// compact.MessageIDs([Contents](history)) gives; [Memory.Records] adds the
// history positions each summary condensed, their SHA-256 ([HashMessages])
// and the summarized-up-to position; [Memory.Verify] checks them against
// the history; [Memory.Stats] reports messages total and summarized, masked
// outputs, summaries, compactions and tokens saved.
//
// # Stores
//
// A store.Store (package store holds the contract, its conformance harness
// store/storetest and the stores) persists a session's store.State: the
// summary chain with its audit data (store.Record), the summarized-up-to
// position, the engine's trigger state (the compact.Session JSON) and a
// version. The in-memory store.Memory is the default; store/sqlitestore
// keeps states and full-fidelity histories in one SQLite file. A store that
// also keeps histories (store.HistoryStore) gives the Memory its session's
// history unless [WithChatHistory] sets another. Saves are a version compare-and-swap: when another Memory or
// process saved first, the Memory adopts the newer state (after checking it
// against the history) and runs the engine again on top of it, so nobody's
// work is overwritten. A Memory created on a store that holds its session
// resumes from there.
//
// A Memory is safe for concurrent use.
package memory
