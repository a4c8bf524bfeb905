import Foundation

/// A world city with its coordinates, from the bundled `cities.json`: the place a game-night
/// reminder suggests, found offline from where the browser says the player is.
public struct City: Sendable, Equatable, Codable {
  public let name: String
  /// ISO 3166 country code.
  public let country: String
  public let lat: Double
  public let lon: Double

  public init(name: String, country: String, lat: Double, lon: Double) {
    self.name = name
    self.country = country
    self.lat = lat
    self.lon = lon
  }

  /// The place a reminder names when the player shares no location, as in the original app.
  public static let fallback = City(name: "Skopje", country: "MK", lat: 41.9981, lon: 21.4254)

  /// The bundled cities, loaded once.
  public static let bundled: [City] = {
    let url = ContentLibrary.resources.appendingPathComponent("cities.json")
    guard let data = try? Data(contentsOf: url),
      let cities = try? JSONDecoder().decode([City].self, from: data)
    else { fatalError("the bundled cities.json does not load") }
    return cities
  }()

  /// The city of `cities` nearest to a point (great-circle distance), with the distance in km.
  public static func nearest(lat: Double, lon: Double, in cities: [City] = bundled) -> (
    city: City, km: Double
  )? {
    cities.map { ($0, distanceKm(lat, lon, $0.lat, $0.lon)) }.min { $0.1 < $1.1 }
  }

  /// The haversine distance between two points, in kilometres.
  public static func distanceKm(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double)
    -> Double
  {
    let rad = Double.pi / 180
    let dLat = (lat2 - lat1) * rad
    let dLon = (lon2 - lon1) * rad
    let a =
      sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2)
      * sin(dLon / 2)
    return 6371.0088 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
  }
}
