package vocab

import (
	"fmt"
	"strings"
)

// Layer is the pipeline layer a debate belongs to.
type Layer string

// The layers, in pipeline order.
const (
	LayerSpec   Layer = "spec"
	LayerPlan   Layer = "plan"
	LayerVerify Layer = "verify"
)

// Layers lists every layer in pipeline order.
var Layers = []Layer{LayerSpec, LayerPlan, LayerVerify}

// ParseLayer accepts "spec", "plan" or "verify" (any case, surrounding
// space ignored); anything else wraps ErrUnknownLayer.
func ParseLayer(s string) (Layer, error) {
	l := Layer(strings.ToLower(strings.TrimSpace(s)))
	for _, known := range Layers {
		if l == known {
			return l, nil
		}
	}
	return "", fmt.Errorf("%w: %q (use spec, plan or verify)", ErrUnknownLayer, s)
}
