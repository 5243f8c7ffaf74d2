package reclass_test

import (
	"fmt"

	"github.com/agentcompact/compact/internal/reclass"
)

func ExampleSkipSpace() {
	fmt.Printf("%q %v %v\n", reclass.SkipSpace("\t\n key = v"), reclass.Space('\f'), reclass.Space('\v'))
	// Output: "key = v" true false
}
