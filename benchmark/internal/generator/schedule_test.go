package generator

import (
	"testing"
	"time"
)

func TestScheduleWithoutRampUpIsEvenlySpaced(t *testing.T) {
	s := Schedule{Rate: 20, Duration: 60 * time.Second}
	if got := s.Total(); got != 1200 {
		t.Fatalf("Total() = %d, want 1200", got)
	}
	for k, want := range map[int]time.Duration{0: 0, 1: 50 * time.Millisecond, 1199: 59950 * time.Millisecond} {
		if got := s.Due(k); got != want {
			t.Errorf("Due(%d) = %v, want %v", k, got, want)
		}
	}
}

func TestScheduleRampsLinearlyThenHoldsTheRate(t *testing.T) {
	// 200/s for 5 min with a 30 s ramp: 200*30/2 during the ramp, 200*270 after it.
	s := Schedule{Rate: 200, Duration: 5 * time.Minute, RampUp: 30 * time.Second}
	if got, want := s.Total(), 3000+54000; got != want {
		t.Fatalf("Total() = %d, want %d", got, want)
	}
	// Half-way through the ramp a quarter of the ramp's starts are due (area under a line).
	if got := s.Due(3000 / 4); absDiff(got, 15*time.Second) > time.Millisecond {
		t.Errorf("Due(750) = %v, want 15s", got)
	}
	if got := s.Due(3000); absDiff(got, 30*time.Second) > time.Millisecond {
		t.Errorf("Due(3000) = %v, want 30s (the end of the ramp)", got)
	}
	// After the ramp, one start every 1/200 s.
	if got := s.Due(3000+200) - s.Due(3000); absDiff(got, time.Second) > time.Millisecond {
		t.Errorf("200 starts after the ramp took %v, want 1s", got)
	}
	// Due times never go backwards and every start is due within the duration.
	for k := 1; k < s.Total(); k++ {
		if s.Due(k) < s.Due(k-1) {
			t.Fatalf("Due(%d) < Due(%d)", k, k-1)
		}
	}
	if last := s.Due(s.Total() - 1); last >= s.Duration {
		t.Errorf("last start due at %v, not within %v", last, s.Duration)
	}
}

func absDiff(a, b time.Duration) time.Duration {
	if a > b {
		return a - b
	}
	return b - a
}
