package refid_test

import (
	"fmt"

	"github.com/agentcompact/compact/internal/refid"
)

func Example() {
	marker := "[… compact: 420 bytes cut, ref:k3f2a9qx …] see also ref:abc"
	refid.Each(marker, func(id string) bool {
		fmt.Println(id)
		return true
	})
	fmt.Println(refid.Names(marker, "k3f2a9qx"), refid.Names(marker, "k3f2"))
	// Output:
	// k3f2a9qx
	// abc
	// true false
}
