package tracker

import "fmt"

// TrackShipment reports where a shipment is and when it should arrive.
func TrackShipment(shipmentID string, distanceKm int) string {
	days := estimateDelivery(distanceKm)
	return fmt.Sprintf("%s arrives in %d days", shipmentID, days)
}
