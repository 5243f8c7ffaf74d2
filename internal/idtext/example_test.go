package idtext_test

import (
	"fmt"
	"strings"

	"github.com/agentcompact/compact/internal/idtext"
)

func ExampleQuote() {
	fmt.Println(idtext.Quote("conversation-42"))
	fmt.Println(idtext.Quote(strings.Repeat("x", 100)))
	// Output:
	// "conversation-42"
	// "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"(100 bytes, sha256 09ecb6ebc8bc)
}
