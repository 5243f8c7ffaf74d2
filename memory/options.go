package memory

import (
	"fmt"
	"log/slog"
	"math"
	"time"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/recall"

	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/internal/optcheck"
	"github.com/agentcompact/compact/memory/internal/retrieval"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/schema"
)

// Defaults of a [Memory]; the first five are those of langchaingo's
// memory.ConversationBuffer.
const (
	DefaultMemoryKey   = "history"
	DefaultHumanPrefix = "Human"
	DefaultAIPrefix    = "AI"
	DefaultSessionID   = "default"
	// DefaultMinWindow is the default of [WithMinWindow].
	DefaultMinWindow = conversation.DefaultMinWindow
)

type options struct {
	history        schema.ChatMessageHistory
	returnMessages bool
	memoryKey      string
	inputKey       string
	outputKey      string
	humanPrefix    string
	aiPrefix       string
	store          store.Store
	sessionID      string
	workers        int
	pool           *Pool
	logger         *slog.Logger
	toolRounds     bool
	minWindow      int
	promptReserve  int // < 0: the default, DefaultPromptReserve's text
	windowTurns    int // < 1: off
	recall         []recall.Option
	lease          store.LeaseTiming
	backoff        conversation.Backoff
	retrievalOff   bool                     // WithRetrieval(false) (retrieve.go)
	retrievalShare float64                  // WithRetrievalReserve; 0: the default
	turnPolicy     bool                     // WithTurnPolicy (policy.go)
	hybrid         retrieval.SemanticConfig // WithEmbedder and its options (hybrid.go)
	// err is the first option given a value out of its range (badOption).
	err error
}

// badOption records, unless one is recorded already, that the option name
// was given a value out of its range: an error wrapping
// compact.ErrInvalidOption, in compact.New's words ("compact: invalid
// option: WithX: ..."), after the package's prefix.
func (o *options) badOption(name, format string, args ...any) {
	if o.err == nil {
		o.err = fmt.Errorf("memory: %w: %s: %s", compact.ErrInvalidOption, name, fmt.Sprintf(format, args...))
	}
}

// finite reports whether f is neither NaN nor an infinity.
func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func defaultOptions() options {
	return options{
		memoryKey:     DefaultMemoryKey,
		humanPrefix:   DefaultHumanPrefix,
		aiPrefix:      DefaultAIPrefix,
		sessionID:     DefaultSessionID,
		toolRounds:    true,
		minWindow:     DefaultMinWindow,
		promptReserve: -1,
		turnPolicy:    true,
	}
}

// Option configures a [Memory]. The options named like langchaingo's
// memory.ConversationBuffer options mean the same and have the same defaults.
// An option given a value out of its range is an error wrapping
// compact.ErrInvalidOption that names it ("memory: compact: invalid option:
// WithAsync: ..."): [NewChecked] returns it, and every method of a Memory
// built by [New] with it returns it; the value never silently becomes a
// default.
type Option func(*options)

// WithChatHistory sets the history that holds the conversation's original
// messages. Any schema.ChatMessageHistory works; one that implements
// [store.IncrementalHistory] (like [store.ChatHistory] and the stores'
// histories) keeps the per-turn cost independent of the conversation's
// length. The Memory never stores a summary in it and never calls its
// SetMessages.
// Default: the session's history in the store when [WithStore] gives a
// [store.HistoryStore] (the default store is one), else a new
// [store.ChatHistory]. A nil history means the default.
func WithChatHistory(h schema.ChatMessageHistory) Option {
	return func(o *options) { o.history = h }
}

// WithReturnMessages makes LoadMemoryVariables return the context as a
// []llms.ChatMessage instead of a buffer string. Default false. Agent
// executors require the string form (they reject non-string inputs).
func WithReturnMessages(on bool) Option { return func(o *options) { o.returnMessages = on } }

// WithMemoryKey sets the key under which LoadMemoryVariables returns the
// context. Default "history". An empty key is an invalid option.
func WithMemoryKey(key string) Option {
	return func(o *options) {
		if key == "" {
			o.badOption("WithMemoryKey", "the key must not be empty")
			return
		}
		o.memoryKey = key
	}
}

// WithInputKey sets the input key whose value SaveContext records as the
// human message. Default "": the inputs must then hold exactly one value.
func WithInputKey(key string) Option { return func(o *options) { o.inputKey = key } }

// WithOutputKey sets the output key whose value SaveContext records as the
// AI message. Default "": the outputs must then hold exactly one value
// besides intermediate steps ([]schema.AgentStep values, see
// [WithToolRounds]).
func WithOutputKey(key string) Option { return func(o *options) { o.outputKey = key } }

// WithHumanPrefix sets the prefix of human messages in the buffer string.
// Default "Human".
func WithHumanPrefix(prefix string) Option { return func(o *options) { o.humanPrefix = prefix } }

// WithAIPrefix sets the prefix of AI messages in the buffer string.
// Default "AI".
func WithAIPrefix(prefix string) Option { return func(o *options) { o.aiPrefix = prefix } }

// WithStore sets where the session's compaction state (summary chain,
// summarized-up-to position, integrity hashes, trigger state, version) is
// persisted. Default: a new [store.Memory] (nothing survives the process).
// A nil store means the default. Memories of several processes (replicas)
// given the same store and session id share the conversation through
// package conversation's protocol (the middleware's too): each engine call
// syncs with the stored state, compacts under the session's lease, and
// saves with a compare-and-swap; conflicts and store errors are retried
// ([WithBackoff]); a state that cannot be saved is not kept (the Memory is
// the stored state again and the call returns the error).
func WithStore(s store.Store) Option { return func(o *options) { o.store = s } }

// WithSessionID sets the id of the session in the store. Memories of
// different conversations sharing a store need different ids; Memories (or
// processes) given the same id share one conversation. Default "default".
// An id conversation.CheckID refuses (empty, over store.MaxSessionIDBytes
// bytes, or holding a control character such as NUL or a line break) makes
// LoadMemoryVariables, SaveContext, Clear and the recall tool return its
// error (wrapping conversation.ErrInvalidID, the id quoted bounded), and
// nothing is read or written.
func WithSessionID(id string) Option { return func(o *options) { o.sessionID = id } }

// WithAsync makes compaction run in the background after each SaveContext,
// on a private pool of workers goroutines (at least 1), one compaction at a
// time for the session. LoadMemoryVariables then never compacts: it returns
// the latest background result plus the messages saved since, so a turn is
// never blocked by a summarizer. Close waits for the running compaction.
// Default: synchronous, LoadMemoryVariables compacts when the trigger says
// so. workers below 1 is an invalid option.
func WithAsync(workers int) Option {
	return func(o *options) {
		if workers < 1 {
			o.badOption("WithAsync", "%d workers, need at least 1", workers)
			return
		}
		o.workers = workers
	}
}

// WithPool is [WithAsync] on a shared [Pool], which bounds the background
// compactions of many Memories together. The Memory does not close the
// pool. A nil pool is ignored.
func WithPool(p *Pool) Option { return func(o *options) { o.pool = p } }

// WithLogger sets the logger of background errors, state resets and
// persistence failures. Default: discard.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

// WithToolRounds sets whether SaveContext records the intermediate steps of
// an agent executor run with WithReturnIntermediateSteps (any output value
// of type []schema.AgentStep) as tool rounds in the history: an AI message
// with the tool calls, then one tool message per result, between the human
// input and the AI output. Later turns then see what the tools returned,
// and compaction masks old outputs down to their extracted facts. Default
// true. Either way such values never count as output keys.
func WithToolRounds(on bool) Option { return func(o *options) { o.toolRounds = on } }

// WithRecallOptions configures the tool [Memory.RecallTool] returns (its
// page cap, search limit, logger; see package recall). Default: the recall
// defaults, counting with the compactor's counter.
func WithRecallOptions(opts ...recall.Option) Option {
	return func(o *options) { o.recall = append(o.recall, opts...) }
}

// WithMinWindow sets how many of the most recent messages always stay in
// the window the engine is given; older messages that the summary chain
// covers are left out of it, which keeps the cost of a turn independent of
// the conversation's length. It must be at least the engine's minMessages
// (default 12) for the trigger to behave exactly as on the whole history.
// Default 32 (conversation.DefaultMinWindow); values below 1 are an invalid
// option.
func WithMinWindow(n int) Option {
	return func(o *options) {
		if n < 1 {
			o.badOption("WithMinWindow", "%d must be >= 1", n)
			return
		}
		o.minWindow = n
	}
}

// WithPromptReserve reserves tokens of the engine's budget for the prompt
// template around the history and the input: every engine call of the
// Memory counts them, so that with the input LoadMemoryVariables is given
// the whole prompt fits the window (see [Memory.LoadMemoryVariables]). Set
// it to the tokens of your prompt without its variables (for a chat prompt,
// its fixed messages); 0 reserves nothing; a reserve of the whole budget
// leaves no room for anything (loads fail with compact.ErrBudgetTooSmall,
// or ErrInputTooLarge with an input); a negative value is an invalid
// option. Default: the tokens, as the engine's counter counts them, of the
// prompt of langchaingo's chains.NewConversation without its {{.history}}
// and {{.input}} variables ([DefaultPromptTemplate]): 57 with the o200k
// tokenizer of gpt-4o.
func WithPromptReserve(tokens int) Option {
	return func(o *options) {
		if tokens < 0 {
			o.badOption("WithPromptReserve", "%d must be >= 0", tokens)
			return
		}
		o.promptReserve = tokens
	}
}

// WithWindowTurns makes the context show only the last k turns of the
// conversation, like langchaingo's memory.ConversationWindowBuffer(k) (a
// turn begins at a human message: the input, then any tool rounds, then the
// AI output); older turns are forgotten, not summarized. The leading system
// messages of the history stay. Until the first compaction the context is
// exactly what ConversationWindowBuffer returns for a history of whole
// turns without system messages; the history itself keeps every message
// (ConversationWindowBuffer deletes the older ones from it).
//
// Compaction then works within the window: when the last k turns alone
// reach the engine's trigger, old tool outputs among them are masked,
// messages summarized and cut as usual, and the summary stays at the head
// of the context until a later compaction replaces it. Turns that left the
// window stay out of the context for the session, even if the option is
// later removed.
//
// It trades away prefix stability (the engine's invariant I7): every new
// turn pushes the oldest one out, so the context is not the previous one
// plus what is new, and providers' prompt caches miss on every call. Prefer
// the default (the whole conversation, compacted when needed) unless a
// fixed window of turns is what you want. Default 0: off; a negative k is
// an invalid option (ConversationWindowBuffer takes it for 5).
func WithWindowTurns(k int) Option {
	return func(o *options) {
		if k < 0 {
			o.badOption("WithWindowTurns", "%d must be >= 0 (0: off)", k)
			return
		}
		o.windowTurns = k
	}
}

// WithLeaseTiming sets the compaction lease used with a store that has
// leases (store.Leaser, such as pgstore's): the lease's ttl, and how long
// a Memory that finds another replica compacting the same session waits
// for its state before compacting rule-based (see conversation.NewSummarizeGate).
// Defaults store.DefaultLeaseTTL and store.DefaultLeaseWait; a value of 0
// keeps its default, a negative one is an invalid option.
func WithLeaseTiming(ttl, wait time.Duration) Option {
	return func(o *options) {
		if bad := optcheck.Lease(ttl, wait); bad != "" {
			o.badOption("WithLeaseTiming", "%s", bad)
			return
		}
		o.lease = store.LeaseTiming{TTL: ttl, Wait: wait}
	}
}

// WithBackoff sets how the Memory retries a version conflict (another
// replica saved first) or a store error: one count for every retry of an
// engine call (see conversation.Backoff). Default: the zero Backoff,
// conversation.DefaultAttempts tries with jittered exponential waits; a
// zero field keeps its default, a negative one is an invalid option.
func WithBackoff(b conversation.Backoff) Option {
	return func(o *options) {
		if bad := optcheck.Backoff(b); bad != "" {
			o.badOption("WithBackoff", "%s", bad)
			return
		}
		o.backoff = b
	}
}
