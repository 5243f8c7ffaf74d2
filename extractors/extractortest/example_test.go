package extractortest_test

import (
	"fmt"
	"strings"

	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/extractors/extractortest"
)

// A user's extractor that copies the output into a fact leaks secrets and
// overflows the Format cap; Check says so. In a test, call
// extractortest.Run(t, myExtractor) instead.
func ExampleCheck() {
	leaky := extractors.Func(func(c extractors.Call, out string) extractors.ToolSummary {
		return extractors.ToolSummary{Tool: c.Name, Status: "done", KeyFacts: []string{out}}
	})
	for _, c := range extractortest.Cases("my_tool") {
		if c.Name != "my_tool/secrets" {
			continue
		}
		probs := extractortest.Check(leaky.Extract(c.Call, c.Output), true)
		fmt.Println(len(probs) > 0, strings.Contains(strings.Join(probs, "\n"), "not redacted"))
		fmt.Println(probs[0])
	}
	// The registry redacts and normalizes whatever its extractors return.
	reg := extractors.NewRegistry()
	reg.Register("my_tool", leaky)
	for _, c := range extractortest.Cases("my_tool") {
		if c.Name == "my_tool/secrets" {
			fmt.Println(len(extractortest.Check(reg.Extract(c.Call, c.Output), true)))
		}
	}
	// Output:
	// true true
	// unknown status "done"
	// 0
}
