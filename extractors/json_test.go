package extractors

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestJSONFacts(t *testing.T) {
	assert.Equal(t, []string{"JSON object: 2 keys", "Keys: a[2], b{1}"}, jsonFacts(`{"b": {"x": 1}, "a": [1, 2]}`))
	assert.Equal(t, []string{"JSON array: 0 items"}, jsonFacts(`[]`))
	assert.Nil(t, jsonFacts(`{"a": `))
	assert.Nil(t, jsonFacts(`plain`))
	many := "{" + strings.TrimSuffix(strings.Repeat(`"k": 1,`, 1), ",")
	for i := 0; i < 12; i++ {
		many += `, "k` + string(rune('a'+i)) + `": 1`
	}
	many += "}"
	f := jsonFacts(many)
	assert.Equal(t, "JSON object: 13 keys", f[0])
	assert.Contains(t, f[1], "+3 more")
}
