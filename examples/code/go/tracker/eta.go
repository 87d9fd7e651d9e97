package tracker

const kmPerDay = 400

func estimateDelivery(distanceKm int) int {
	days := distanceKm / kmPerDay
	if distanceKm%kmPerDay != 0 {
		days++
	}
	return days
}
