import Foundation
import GuessworkContent
import GuessworkCore
import GuessworkPlay
import GuessworkStore
import HTTPTypes
import Hummingbird
import NIOCore

/// Game-night reminders: a title, a start with its UTC offset at least an hour ahead, and a
/// place; each downloadable as an iCalendar event whose alarm fires an hour before.
enum ReminderRules {
  static let titleLimit = 80
  static let placeLimit = 80

  /// A title or place, checked (``StoredText``), or a 400 that says what is wrong.
  static func clean(_ raw: String, _ rule: StoredText) throws -> String {
    do {
      return try rule.clean(raw)
    } catch {
      throw APIError(.badRequest, "bad-request", [error.message])
    }
  }
  static let perPlayer = 100
  /// The start must be at least this far ahead (one hour), in milliseconds.
  static let minimumLead: Int64 = 3_600_000
  /// ... and at most this far (five years).
  static let maximumLead: Int64 = 5 * 366 * 86_400_000

  /// A start like `2026-12-24T20:00+01:00` or `2026-12-24T19:00:00Z`: the instant in
  /// milliseconds and the offset in minutes east of UTC; `nil` when it is not one.
  static func parseStart(_ text: String) -> (milliseconds: Int64, offsetMinutes: Int)? {
    let pattern =
      /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|z|[+-]\d{2}:?\d{2})$/
    guard let match = text.wholeMatch(of: pattern) else { return nil }
    guard let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
      let hour = Int(match.4), let minute = Int(match.5)
    else { return nil }
    let second = match.6.flatMap { Int($0) } ?? 0
    guard (1...12).contains(month), (1...daysIn(month, year)).contains(day),
      (0...23).contains(hour),
      (0...59).contains(minute), (0...59).contains(second)
    else { return nil }
    var offset = 0
    let zone = String(match.7)
    if zone != "Z" && zone != "z" {
      let digits = zone.dropFirst().filter(\.isNumber)
      guard let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)), hours <= 18,
        minutes < 60
      else { return nil }
      offset = (hours * 60 + minutes) * (zone.hasPrefix("-") ? -1 : 1)
    }
    let days = daysFromCivil(year, month, day)
    let local = ((days * 24 + Int64(hour)) * 60 + Int64(minute)) * 60 + Int64(second)
    return ((local - Int64(offset) * 60) * 1000, offset)
  }

  static func daysIn(_ month: Int, _ year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
    let y = Int64(month <= 2 ? year - 1 : year)
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let m = Int64(month)
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The date and time of days since 1970.
  static func civil(_ seconds: Int64) -> (
    year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
  ) {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let rest = seconds - days * 86_400
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    return (
      Int(year), Int(month), Int(day), Int(rest / 3600), Int(rest % 3600 / 60), Int(rest % 60)
    )
  }

  /// `2026-12-24T20:00:00+01:00`: the start as the player gave it.
  static func formatStart(_ milliseconds: Int64, offsetMinutes: Int) -> String {
    let t = civil(milliseconds / 1000 + Int64(offsetMinutes) * 60)
    let sign = offsetMinutes < 0 ? "-" : "+"
    let offset = abs(offsetMinutes)
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02d%@%02d:%02d", t.year, t.month, t.day, t.hour,
      t.minute, t.second, sign, offset / 60, offset % 60)
  }
}

/// iCalendar (RFC 5545) text: CRLF line ends, TEXT values escaped, lines folded at 75 octets.
enum ICalendar {
  /// A calendar with one event and a display alarm one hour before it.
  static func event(
    _ reminder: ReminderRecord, stamp: Int64, in catalog: Catalog = Catalog.of(.en)
  ) -> String {
    let end = reminder.startsAt + 3 * 3_600_000
    var lines = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Guesswork//Game night reminders//EN",
      "CALSCALE:GREGORIAN",
      "METHOD:PUBLISH",
      "BEGIN:VEVENT",
      "UID:\(reminder.id)@guesswork",
      "DTSTAMP:\(utc(stamp))",
      "DTSTART:\(utc(reminder.startsAt))",
      "DTEND:\(utc(end))",
      "SUMMARY:\(escape(reminder.title))",
      "LOCATION:\(escape(reminder.place))",
    ]
    if let lat = reminder.latitude, let lon = reminder.longitude {
      lines.append("GEO:\(String(format: "%.6f", lat));\(String(format: "%.6f", lon))")
    }
    lines += [
      "DESCRIPTION:\(escape(catalog("reminder.description", ["place": .text(reminder.place)])))",
      "BEGIN:VALARM",
      "ACTION:DISPLAY",
      "DESCRIPTION:\(escape(catalog("reminder.alarm", ["title": .text(reminder.title)])))",
      "TRIGGER;RELATED=START:-PT1H",
      "END:VALARM",
      "END:VEVENT",
      "END:VCALENDAR",
    ]
    return lines.map(fold).joined(separator: "\r\n") + "\r\n"
  }

  /// `20261224T190000Z`
  static func utc(_ milliseconds: Int64) -> String {
    let t = ReminderRules.civil(milliseconds / 1000)
    return String(
      format: "%04d%02d%02dT%02d%02d%02dZ", t.year, t.month, t.day, t.hour, t.minute, t.second)
  }

  /// Escapes a TEXT value: backslash, semicolon, comma and line breaks.
  static func escape(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "\\": out += "\\\\"
      case ";": out += "\\;"
      case ",": out += "\\,"
      case "\n", "\r\n", "\r": out += "\\n"
      default: out.append(character)
      }
    }
    return out
  }

  /// Folds a content line into lines of at most 75 octets, continuation lines starting with
  /// a space, never splitting a UTF-8 character.
  static func fold(_ line: String) -> String {
    var result = ""
    var octets = 0
    for scalar in line.unicodeScalars {
      let size = String(scalar).utf8.count
      if octets + size > 75 {
        result += "\r\n "
        octets = 1
      }
      result.unicodeScalars.append(scalar)
      octets += size
    }
    return result
  }
}

extension API {
  struct NewReminder: Decodable {
    var title: String?
    var start: String
    var place: String?
    var latitude: Double?
    var longitude: Double?
  }

  struct ReminderView: Encodable {
    var id: String
    var title: String
    /// The start as given: local time with its UTC offset.
    var start: String
    /// The same instant, in milliseconds since 1970 (UTC).
    var startsAt: Int64
    /// When the alarm fires: one hour before the start.
    var alarmAt: Int64
    var place: String
    var latitude: Double?
    var longitude: Double?
    var icsURL: String

    init(_ record: ReminderRecord) {
      id = record.id
      title = record.title
      start = ReminderRules.formatStart(record.startsAt, offsetMinutes: record.utcOffsetMinutes)
      startsAt = record.startsAt
      alarmAt = record.startsAt - 3_600_000
      place = record.place
      latitude = record.latitude
      longitude = record.longitude
      icsURL = "/api/reminders/\(record.id).ics"
    }
  }

  struct ReminderList: Encodable {
    var reminders: [ReminderView]
  }

  func addReminderRoutes(to router: Router<some RequestContext>) {
    router.get("/api/reminders") { request, _ in
      let player = try await identity.requirePlayer(of: request)
      return json(
        ReminderList(
          reminders: try await store.reminders(playerID: player.id).map(ReminderView.init)))
    }
    router.post("/api/reminders") { request, _ in try await createReminder(request) }
    router.get("/api/reminders/{id}") { request, context in
      let id = try context.parameters.require("id")
      let player = try await identity.requirePlayer(of: request)
      let ics = id.hasSuffix(".ics")
      guard let record = try await store.reminder(id: ics ? String(id.dropLast(4)) : id),
        record.playerID == player.id
      else { throw APIError.notFound("reminder") }
      guard ics else { return json(ReminderView(record)) }
      return Response(
        status: .ok,
        headers: [
          .contentType: "text/calendar; charset=utf-8",
          .contentDisposition: "attachment; filename=\"game-night.ics\"",
          .cacheControl: "private, no-store",
        ],
        body: .init(
          byteBuffer: ByteBuffer(
            string: ICalendar.event(
              record, stamp: record.createdAt,
              in: catalog(
                PlayerView(player).preferences.language.spoken ?? request.language)))))
    }
    router.delete("/api/reminders/{id}") { request, context in
      let player = try await identity.requirePlayer(of: request)
      guard
        try await store.deleteReminder(
          id: try context.parameters.require("id"), playerID: player.id)
      else { throw APIError.notFound("reminder") }
      return Response(status: .noContent)
    }
    router.get("/api/cities/nearest") { request, _ in try nearestCity(request) }
  }

  private func createReminder(_ request: Request) async throws -> Response {
    let player = try await identity.requirePlayer(of: request)
    let input = try JSONDecoder().decode(NewReminder.self, from: try await body(of: request))
    let language = PlayerView(player).preferences.language.spoken ?? request.language
    let title = try ReminderRules.clean(
      input.title ?? catalog(language)("reminder.defaultTitle"),
      StoredText(field: "text.field.title", characters: ReminderRules.titleLimit))
    let place = try ReminderRules.clean(
      input.place ?? City.fallback.name,
      StoredText(field: "text.field.place", characters: ReminderRules.placeLimit))
    guard let (startsAt, offset) = ReminderRules.parseStart(input.start) else {
      throw APIError.badRequest("error.reminder.start")
    }
    let now = clock().milliseconds
    guard startsAt >= now + ReminderRules.minimumLead else {
      let minutes = (startsAt - now) / 60_000
      throw APIError(
        .badRequest, "start-too-soon",
        startsAt <= now ? "error.reminder.past" : "error.reminder.soon",
        ["minutes": .int(Int(minutes))])
    }
    guard startsAt <= now + ReminderRules.maximumLead else {
      throw APIError.badRequest("error.reminder.far")
    }
    switch (input.latitude, input.longitude) {
    case (nil, nil): break
    case (let lat?, let lon?) where (-90...90).contains(lat) && (-180...180).contains(lon): break
    default:
      throw APIError.badRequest("error.reminder.place")
    }
    let record = ReminderRecord(
      id: UUID().uuidString.lowercased(), playerID: player.id, title: title,
      startsAt: startsAt, utcOffsetMinutes: offset, place: place, latitude: input.latitude,
      longitude: input.longitude, createdAt: now)
    // Counted and inserted in one transaction: creations at once cannot pass the limit.
    guard try await store.insertReminder(record, limit: ReminderRules.perPlayer) else {
      throw APIError.badRequest(
        "error.reminder.full", ["perPlayer": .text("\(ReminderRules.perPlayer)")])
    }
    return json(ReminderView(record), status: .created)
  }

  struct NearestCity: Encodable {
    var name: String
    var country: String
    var lat: Double
    var lon: Double
    var distanceKm: Double
  }

  private func nearestCity(_ request: Request) throws -> Response {
    let query = request.uri.queryParameters
    guard let lat = query.get("lat").flatMap(Double.init), (-90...90).contains(lat),
      let lon = query.get("lon").flatMap(Double.init), (-180...180).contains(lon)
    else {
      throw APIError.badRequest("error.cityPlace")
    }
    guard let (city, km) = City.nearest(lat: lat, lon: lon) else {
      throw APIError.notFound("city")
    }
    return json(
      NearestCity(
        name: city.name, country: city.country, lat: city.lat, lon: city.lon,
        distanceKm: (km * 10).rounded() / 10))
  }
}
