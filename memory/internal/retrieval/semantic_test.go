package retrieval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/agentcompact/compact/internal/embedtest"
	"github.com/stretchr/testify/require"
)

// TestQuantizedCosine: the int8 vectors' cosine is within 0.002 of the
// exact one, for random dense vectors of 1,536 dimensions (an embedding
// model's) and sparse ones (embedtest's).
func TestQuantizedCosine(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	exact := func(a, b []float32) float64 {
		var d, na, nb float64
		for i := range a {
			d += float64(a[i]) * float64(b[i])
			na += float64(a[i]) * float64(a[i])
			nb += float64(b[i]) * float64(b[i])
		}
		return d / math.Sqrt(na*nb)
	}
	var s Semantic
	worst := 0.0
	for range 200 {
		a, b := make([]float32, 1536), make([]float32, 1536)
		for i := range a {
			a[i] = float32(rnd.NormFloat64())
			b[i] = 0.6*a[i] + 0.4*float32(rnd.NormFloat64()) // a cosine of about 0.83
		}
		for _, pair := range [][2][]float32{{a, b}, {a, embedtest.New(1536).Vector("My automobile is a red sedan.")}} {
			qa, err := s.unitLocked(pair[0])
			require.NoError(t, err)
			qb, err := s.unitLocked(pair[1])
			require.NoError(t, err)
			worst = max(worst, math.Abs(dot(qa, qb)-exact(pair[0], pair[1])))
		}
	}
	t.Logf("largest error: %.5f", worst)
	require.Less(t, worst, 0.002)
	_, err := s.unitLocked(make([]float32, 8))
	require.ErrorIs(t, err, errBadVector, "another dimension")
	require.Equal(t, -2.0, dot(qvec{v: []int8{1}}, qvec{v: []int8{1, 2}}), "dimensions differ: below any threshold")
}
