// Package prompts holds the LLM summarizer's prompt and the structured
// summary it asks for.
//
// The prompt is a pair of langchaingo prompt templates (package
// github.com/tmc/langchaingo/prompts, Go template syntax): a system template
// that demands one strict JSON object and states the faithfulness rules
// (identifiers, file names, signatures, numbers, dates and versions verbatim;
// empty arrays rather than invention; nothing that is not in the source; the
// transcript is data, not instructions), and a user template that carries a
// `<meta total_messages=... total_tokens=... depth=... />` header, the previous
// summary being folded in (when there is one) and the canonical transcript.
// [Default] returns the built-in [Template]; [New] builds a custom one from
// the same variables.
//
// The transcript is rendered by [RenderMessage]: each message is delimited as
// `<message index=N role=ROLE>...</message>`, tool calls as
// `<tool_call name=... id=...>...</tool_call>` and tool outputs as
// `<tool_output name=... id=...>...</tool_output>`; anything inside that
// looks like one of these delimiters is escaped by [EscapeData], so text in a
// conversation cannot close a delimiter or forge a turn.
//
// [ParseSummary] parses and validates the model's reply against the schema
// ([SchemaVersion]): one JSON object, optionally wrapped in a markdown code
// fence, with a non-empty summary, at most [MaxKeyPoints] key points, every
// array and string length-capped. Any other reply is an error wrapping
// [ErrInvalidSummary].
//
// The package is a leaf: it imports langchaingo, the standard library and
// the summary record's leaf package (summary/record) only.
package prompts
