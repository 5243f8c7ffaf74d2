package main

import (
	"context"
	"fmt"

	"github.com/tmc/langchaingo/llms"
)

// OpenHands' LLMSummarizingCondenser (software-agent-sdk), defaults.
const (
	ohMaxSize   = 240 // events in the view before it condenses
	ohKeepFirst = 2   // leading events never condensed (system prompt, task)
	// ohMaxRequests bounds the condensation requests of one call that
	// still does not fit (each forgets about half of the view).
	ohMaxRequests = 8
)

var openhandsDef = peerDef{
	name: "openhands-condenser",
	doc:  "OpenHands `LLMSummarizingCondenser`, defaults: when the view holds more than 240 events, or when a call would overflow the context (the agent then asks for a condensation), the events between the first 2 and the last half are forgotten, for good, and one summary event (a user message) takes their place after the first 2; tool rounds are not split",
	params: func(w, b int) string {
		return fmt.Sprintf("max_size 240 events (one message, one event); keep_first 2; max_tokens none; on overflow of the budget (%s tokens) a condensation request keeps len/2 - 3 events of the tail", fmtInt(int64(b)))
	},
	source:     "`OpenHands/software-agent-sdk` `openhands-sdk/openhands/sdk/context/condenser/llm_summarizing_condenser.py` at 118402ab6c8c (`max_size: int = Field(default=240)`, `keep_first: int = Field(default=2)`, `max_tokens: None`; `_get_forgotten_events`: `events_from_tail = max_size // 2 - keep_first - 1`, or `len(view) // 2 - keep_first - 1` for a condensation request; forgetting bounds at manipulation indices; the summary at `summary_offset`); earlier SDK revisions used max_size 120, keep_first 4, and OpenHands V0 100 and 1",
	wins:       "it condenses rarely (past 240 events or on overflow) and then forgets half of the view at once",
	needs:      "fewer and deeper compactions",
	gaps:       "an event is a message here (OpenHands makes one event of each action and each observation, so a message with several tool calls is several events); the summary prompt (`summarizing_prompt.j2`) does not reach the offline summarizer",
	summarizes: true,
	newRun: func(env peerEnv) peerPolicy {
		return &openhandsCondenser{env: env, maxSize: ohMaxSize, keepFirst: ohKeepFirst}
	},
}

// openhandsAgentDef is the condenser as OpenHands' default agent preset
// configures it.
var openhandsAgentDef = peerDef{
	name: "openhands-condenser-agent",
	doc:  "OpenHands `LLMSummarizingCondenser` as the SDK's default agent preset configures it: max_size 80 events, keep_first 4; otherwise as `openhands-condenser`",
	params: func(w, b int) string {
		return fmt.Sprintf("max_size 80 events; keep_first 4; on overflow of the budget (%s tokens) a condensation request keeps len/2 - 5 events of the tail; the summarizer gets all forgotten events", fmtInt(int64(b)))
	},
	source:     "`OpenHands/software-agent-sdk` `openhands-tools/openhands/tools/preset/default.py` (`get_default_condenser`: `LLMSummarizingCondenser(llm=..., max_size=80, keep_first=4)`); the condenser as in `openhands-condenser`",
	wins:       "it condenses every 40 or so events, forgetting half of the view at once",
	needs:      "fewer and deeper compactions",
	gaps:       "as `openhands-condenser`",
	summarizes: true,
	newRun:     func(env peerEnv) peerPolicy { return &openhandsCondenser{env: env, maxSize: 80, keepFirst: 4} },
}

// openhandsCondenser replays the condenser's view: condensed for good,
// grown by the new messages of each call.
type openhandsCondenser struct {
	env       peerEnv
	maxSize   int
	keepFirst int
	prevSum   string                // the text of the summary event, if any
	view      []llms.MessageContent // system prompt included (an event)
	feed      feed
}

func (o *openhandsCondenser) context(ctx context.Context, in []llms.MessageContent) []llms.MessageContent {
	o.view = append(o.view, o.feed.next(in, false)...)
	if len(o.view) > o.maxSize {
		o.condense(ctx, o.maxSize/2-o.keepFirst-1)
	}
	for r := 0; r < ohMaxRequests && o.env.counter.CountMessages(o.view) > o.env.budget; r++ {
		if !o.condense(ctx, len(o.view)/2-o.keepFirst-1) {
			break
		}
	}
	return append([]llms.MessageContent(nil), o.view...)
}

// condense forgets the events from the first unit start at or after
// keep_first to the first unit start at or after len - fromTail, and puts
// their summary in their place. It reports whether anything was forgotten.
func (o *openhandsCondenser) condense(ctx context.Context, fromTail int) bool {
	start := unitStart(o.view, o.keepFirst)
	end := unitStart(o.view, len(o.view)-max(fromTail, 0))
	if start >= end {
		return false
	}
	// All forgotten events go to the summarizer (no cap), the previous
	// summary event read as such.
	forgotten := o.view[start:end]
	if o.prevSum != "" {
		forgotten = withoutPrefixed(forgotten, o.prevSum)
	}
	sum := o.env.summarizeReq(ctx, peerSumRequest{msgs: forgotten, maxInput: -1, previous: o.prevSum})
	o.prevSum = sum
	view := make([]llms.MessageContent, 0, len(o.view)-(end-start)+1)
	view = append(view, o.view[:start]...)
	view = append(view, textMessage(llms.ChatMessageTypeHuman, sum))
	o.view = append(view, o.view[end:]...)
	return true
}
