import Foundation
import GuessworkStore
import Testing

@testable import GuessworkServer

@Suite("Reminders: start times and iCalendar text")
struct ReminderTests {
  @Test(
    "Starts with a UTC offset are read as instants",
    arguments: [
      ("2026-12-24T20:00+01:00", Int64(1_798_138_800_000), 60),
      ("2026-12-24T19:00:00Z", 1_798_138_800_000, 0),
      ("2026-12-24T14:00:00.250-05:00", 1_798_138_800_000, -300),
      ("2024-02-29T00:00+0530", 1_709_145_000_000, 330),
    ])
  func parse(text: String, milliseconds: Int64, offset: Int) throws {
    let parsed = try #require(ReminderRules.parseStart(text))
    #expect(parsed.milliseconds == milliseconds)
    #expect(parsed.offsetMinutes == offset)
  }

  @Test(
    "Anything without an offset, or not a real date, is refused",
    arguments: [
      "2026-12-24T20:00", "2026-02-30T20:00Z", "2025-02-29T10:00Z", "2026-12-24T24:00Z",
      "tomorrow", "2026-12-24", "2026-12-24T20:00+25:00", "",
    ])
  func refuse(text: String) {
    #expect(ReminderRules.parseStart(text) == nil)
  }

  @Test("The start is shown as given, with its offset")
  func format() {
    #expect(
      ReminderRules.formatStart(1_798_138_800_000, offsetMinutes: -300)
        == "2026-12-24T14:00:00-05:00")
    #expect(ReminderRules.formatStart(0, offsetMinutes: 330) == "1970-01-01T05:30:00+05:30")
  }

  @Test("TEXT values are escaped and long lines folded at 75 octets, never inside a character")
  func escapingAndFolding() {
    #expect(ICalendar.escape(#"a,b;c\d"# + "\ne") == #"a\,b\;c\\d\ne"#)
    let line = "SUMMARY:" + String(repeating: "é🥳", count: 40)
    let folded = ICalendar.fold(line)
    let lines = folded.components(separatedBy: "\r\n")
    #expect(lines.count > 1)
    #expect(lines.allSatisfy { $0.utf8.count <= 75 })
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
    #expect(lines.first! + lines.dropFirst().map { String($0.dropFirst()) }.joined() == line)
  }

  @Test("An event has the start in UTC, the title, the place and an alarm an hour before")
  func event() {
    let reminder = ReminderRecord(
      id: "r1", playerID: "p", title: "Game night", startsAt: 1_798_138_800_000,
      utcOffsetMinutes: 60, place: "Skopje", latitude: 41.9981, longitude: 21.4254,
      createdAt: 1_798_000_000_000)
    let text = ICalendar.event(reminder, stamp: reminder.createdAt)
    #expect(text.hasSuffix("\r\n"))
    let lines = text.components(separatedBy: "\r\n")
    for expected in [
      "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:r1@guesswork",
      "DTSTART:20261224T190000Z", "DTEND:20261224T220000Z", "SUMMARY:Game night",
      "LOCATION:Skopje", "GEO:41.998100;21.425400", "BEGIN:VALARM", "ACTION:DISPLAY",
      "TRIGGER;RELATED=START:-PT1H", "END:VALARM", "END:VEVENT", "END:VCALENDAR",
    ] {
      #expect(lines.contains(expected), "\(expected)")
    }
  }
}
