// Package middleware compacts the context of every call an agent makes to
// its model, including each iteration of the tool loop inside one agent run,
// where contexts actually overflow.
//
//	c, _ := compact.New(compact.WithModel("gpt-4o"))
//	llm, err := middleware.WrapChecked(model, c) // an llms.Model, in the shape of llms/cache
//	agent := agents.NewOpenAIFunctionsAgent(llm, append(tools, llm.RecallTool()))
//	ctx = middleware.WithSession(ctx, "conversation-42")
//	out, err := chains.Run(ctx, agents.NewExecutor(agent), task)
//
// What you call: [Wrap] or [WrapChecked] (the same, with the error of a nil
// model or an option out of its range at once rather than at every call),
// [WithSession] on the context of a run, [Model.RecallTool] for the agent,
// and the options [WithStore] (share conversations across processes),
// [WithObserver] (see each call) and [WithMaxSessions]. What you see: each
// call's [CallInfo] (what the agent built, what was sent, the compactions);
// old tool outputs in the prompt as one line of key facts with a ref that
// the recall tool turns back into the original.
//
// # What a call does
//
// An agent rebuilds its whole message list on every iteration. The wrapper
// passes that list with the conversation's [compact.Session] to the engine:
// the session remembers, by content hash, which messages are summarized and
// which tool outputs are masked, so between compactions the output is the
// previous output plus the new messages (provider prompt caches keep
// hitting) and a summary is never recomputed for a prefix already
// summarized. When the wrapped model still rejects the prompt as too long,
// the wrapper compacts at the emergency level and retries once; after each
// reply it reads the provider's prompt-token count ([PromptTokens]) to
// calibrate the session's budget for models without a public tokenizer.
//
// # Sessions
//
// [WithSession] names the conversation. Without it, the state is keyed by a
// hash of the leading system messages and the first user message, which is
// stable across the iterations of one run (and across runs replaying the
// same history); two conversations with the same opening then share a key,
// and a session whose summary covers none of the messages is restarted.
// Servers should always set an id.
//
// Automatic and chosen ids are two namespaces no chosen id can reach
// across. An automatic id ([AutoSessionPrefix] and a hash) is
// computable by anyone who knows the conversation's opening, so an
// automatic conversation is process-local: it lives in this Model's table
// only, is never written to nor read from a store ([WithStore]), and its
// originals are never kept for recall. An id given to [WithSession] must
// pass [CheckSessionID]: at most store.MaxSessionIDBytes bytes, no control
// character (no NUL, which the table's keys of automatic sessions start
// with), and not the reserved prefix "auto-"; a refused id fails the call
// with [ErrInvalidSession] before anything is read or written, and the
// recall tool reads nothing for it. The session table is bounded
// ([WithMaxSessions], least recently used first) and forgets idle sessions
// ([WithSessionTTL]); it is safe for concurrent use.
//
// # Recall
//
// Every masked output and cut message shows the ref of its original, and,
// when the call offers the recall tool (its llms.WithTools or
// llms.WithFunctions include one named recall.Name, or a text agent's tool
// list does), the summary ends with a pointer to it (compact.RecallHint);
// a call without it gets a summary without the pointer. [Model.RecallTool]
// gives the agent that tool: it pages an original by its ref or searches the
// compacted originals of the session [WithSession] set in the context the
// executor passes to tools. The originals of each explicit session are kept
// in memory, within [WithMaxOriginalBytes], and leave with their session
// (with [WithStore], in the store). An automatic session has no recall.
//
// # Agent types and per-tool extraction
//
//   - Tool-calling agents (agents.OpenAIFunctionsAgent, any chain sending
//     llms.ToolCall / llms.ToolCallResponse messages): each old tool output is
//     condensed by the extractor of its tool (compactor's extractors.Registry),
//     old rounds are summarized, recent ones kept verbatim.
//   - Text agents: agents.OneShotAgent (MRKL, "zero-shot-react-description")
//     and agents.ConversationalAgent ("conversational-react-description")
//     send one user message holding the prompt and a scratchpad of
//     "Action: / Action Input: / Observation:" steps. The wrapper recognizes
//     that scratchpad (the agents' default templates, and custom ones that
//     keep these three lines), hands the engine one tool round per step (the
//     action as the tool name, the action input as its arguments, the
//     observation as its output), and writes the result back in the agent's
//     format. So old observations get the same per-tool extraction and old
//     steps the same summaries; the text up to the scratchpad (instructions,
//     question, conversation history) is kept, and only cut as a last resort.
//     Disable with [WithTextAgents](false).
//   - Anything else (a plain chat, a prompt without that scratchpad) is
//     compacted as a message list; a single huge user message can only be cut
//     as a last resort.
//
// # Many replicas
//
// [WithStore] keeps the sessions' state in a shared store (store/pgstore
// for PostgreSQL): the session table becomes a cache in front of it, a call
// that compacts nothing costs one round trip (a version check), a replica
// adopts the stored session before it compacts, and a compaction's
// summarizer runs under the session's lease so one call serves all
// replicas. The protocol is package conversation's, shared with
// memory.Memory: conflicts and store errors are retried with backoff, a
// compaction that was not stored is never kept, and a stale request is
// served as a branch without touching the shared state. The recall tool
// then reads the originals from the store. Only conversations with an id
// set by [WithSession] are shared: a session-less call is compacted in
// this process's table and stores nothing.
//
// The conversation history that agents.Executor memory or the conversational
// agent's "history" variable inject is compacted by package memory, not here.
package middleware
