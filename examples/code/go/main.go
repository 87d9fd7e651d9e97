package main

import (
	"fmt"

	"example.com/shipping/tracker"
)

func main() {
	status := tracker.TrackShipment("SHIP-1", 120)
	fmt.Println(status)
}
