// Package ctxsleep is the one home of waiting that honours a context: the
// retry loops of the conversation protocol, the LLM summarizer and the
// PostgreSQL store pause with [Sleep] between attempts. It imports nothing
// of this module.
package ctxsleep
