package extractors

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// businessRun is a customer-service agent's run: business tools answering
// JSON, one of them failing.
func businessRun() []llms.MessageContent {
	call, result := callMsg, resultMsg
	return []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Cancel my trip. You must refund to the original card."),
		call("c1", "get_user_details", `{"user_id": "mia_li_3668"}`),
		result("c1", `{"name": {"first_name": "Mia"}, "reservations": ["NO6JO3", "HATHAU"], "payment_methods": {"credit_card_4421486": {"id": "credit_card_4421486"}}}`),
		call("c2", "cancel_reservation", `{"reservation_id": "HATHAU"}`),
		result("c2", `{"reservation_id": "HATHAU", "status": "cancelled", "flights": [{"flight_number": "HAT136"}]}`),
		call("c3", "book_reservation", `{"user_id": "mia_li_3668"}`),
		result("c3", `{"error": "payment declined", "payment_id": "credit_card_4421486"}`),
	}
}

func TestDigestRecords(t *testing.T) {
	d := Default().Digest(businessRun(), Digest{})
	require.Len(t, d.Records, 3)
	assert.Equal(t, "book_reservation: credit_card_4421486 (error)", d.Records[0], "most recent first, failures marked")
	assert.Equal(t, "cancel_reservation: HAT136, HATHAU", d.Records[1])
	assert.Equal(t, "get_user_details: credit_card_4421486, NO6JO3, HATHAU", d.Records[2], "keys in byte order")
	assert.Equal(t, []string{"You must refund to the original card."}, d.Instructions)

	text := d.Render(500, nil)
	for _, id := range []string{"NO6JO3", "HATHAU", "HAT136", "credit_card_4421486"} {
		assert.Contains(t, text, id)
	}
	assert.Contains(t, text, "\nRecords: book_reservation: credit_card_4421486 (error); cancel_reservation: HAT136, HATHAU; ")

	// The chain: key points carry the records into the next digest, behind the new ones.
	back := ParseKeyPoints(d.KeyPoints())
	assert.Equal(t, d.Records, back.Records)
	next := Default().Digest(businessRun()[3:5], back)
	assert.Equal(t, "cancel_reservation: HAT136, HATHAU", next.Records[0])
	assert.Len(t, next.Records, 3, "deduplicated")
}

func TestDigestRecordsCapped(t *testing.T) {
	ids := make([]string, 40)
	for i := range ids {
		ids[i] = "ID" + itoa(1000+i)
	}
	item := recordItem("list_orders", ids, false)
	assert.True(t, strings.HasSuffix(item, ", +24 more"), item)
	assert.Equal(t, maxRecordIDs, strings.Count(item, "ID"))
}

func TestInstructions(t *testing.T) {
	text := "Fix the bug. You must not touch vendor/. Why does it fail? Please run the tests first. You must not touch vendor/. " +
		"The weather is nice. " + strings.Repeat("x", 300) + " should be short."
	got := Instructions(text, 0)
	require.Len(t, got, 3, "deduplicated, questions left out: %q", got)
	assert.Equal(t, []string{"You must not touch vendor/.", "Please run the tests first."}, got[:2])
	assert.True(t, strings.HasPrefix(got[2], "The weather is nice. xxx") || strings.HasPrefix(got[2], "xxx"), got[2])
	assert.LessOrEqual(t, len(got[2]), maxInstructionBytes+len("…"), "shortened")
	assert.Len(t, Instructions(text, 1), 1)
	assert.Empty(t, Instructions("", 0))
}

func TestInstructionsDirectivesFirst(t *testing.T) {
	long := "The current code truncates the value on line 1475, " + strings.Repeat("which loses precision ", 8) +
		"so to fix it we should ensure the division gives a float."
	text := "Let's use the staging database. Requirement already satisfied: pytest in /usr/lib. " +
		"You must not touch vendor/. " + long + " We will ship on Friday. Please run the tests first."
	got := InstructionsDirectivesFirst(text)
	require.Len(t, got, 6, "%q", got)
	assert.Equal(t, "You must not touch vendor/.", got[0])
	assert.True(t, strings.HasPrefix(got[1], "The current code truncates"), "classed whole, before it is shortened: %q", got[1])
	assert.NotContains(t, got[1], "should ensure", "the directive words were shortened away")
	assert.Equal(t, "Please run the tests first.", got[2])
	assert.Equal(t, []string{"Let's use the staging database.", "Requirement already satisfied: pytest in /usr/lib.", "We will ship on Friday."}, got[3:])
	assert.ElementsMatch(t, Instructions(text, 0), got, "the same instructions, in another order")
}

func TestShapes(t *testing.T) {
	reg := Default()
	tests := []struct{ name, args, kind string }{
		{"write", `{"filename": "a.md", "content": "x"}`, KindWrite},
		{"search", `{"pattern": "TODO", "path": "src"}`, KindSearch},
		{"read", `{"file_path": "/etc/hosts"}`, KindRead},
		{"fetch", `{"url": "https://example.com"}`, KindHTTP},
		{"shell", `{"command": "make build"}`, KindExec},
		{"key in a value only", `{"note": "the path is \"path\" here"}`, KindOther},
		{"not an object", `"path"`, KindOther},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := reg.Extract(Call{Name: "custom_tool", Arguments: tc.args}, strings.Repeat("some output line\n", 20))
			assert.Equal(t, tc.kind, s.Metadata[MetaKind])
		})
	}
	// A registered name wins over shapes; a registered shape comes after the built-in ones.
	reg.Register("custom_tool", Func(func(c Call, _ string) ToolSummary {
		return ToolSummary{Tool: c.Name, KeyFacts: []string{"mine"}, Metadata: map[string]string{MetaKind: "mine"}}
	}))
	assert.Equal(t, "mine", reg.Extract(Call{Name: "custom_tool", Arguments: `{"command": "ls"}`}, "x").Metadata[MetaKind])
	reg.RegisterShape(Shape{All: []string{"ticket_id"}, None: []string{"command"}}, Func(func(c Call, _ string) ToolSummary {
		return ToolSummary{Tool: c.Name, KeyFacts: []string{"ticket"}, Metadata: map[string]string{MetaKind: "ticket"}}
	}))
	assert.Equal(t, "ticket", reg.Extract(Call{Name: "close", Arguments: `{"ticket_id": "T-1"}`}, "x").Metadata[MetaKind])
	assert.Equal(t, KindExec, reg.Extract(Call{Name: "close", Arguments: `{"ticket_id": "T-1", "command": "make build"}`}, "x").Metadata[MetaKind])
	reg.RegisterShape(Shape{Any: []string{"x"}}, nil) // ignored
	assert.False(t, Shape{Any: []string{"a"}}.matches(parseArgs(`{"b": 1}`)))
	assert.True(t, Shape{}.matches(parseArgs(`{}`)), "an empty shape matches any object")
}
