/**
 * Interaction times as epoch seconds (UTC), for the recommendation split (docs/RECOMMEND.md): the
 * Foursquare files' UTC times ("Tue Apr 03 18:00:09 +0000 2012") and ISO 8601 dates in an
 * `interactions` time column. Date.UTC does the calendar; a date it would roll over (February 30
 * becoming March 1) is refused by reading the components back, not by tables of month lengths.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * Seconds since 1970-01-01T00:00:00Z of a civil date and time at a UTC offset (minutes east), or
 * NaN when a component is out of range or the date does not exist (checked by Date's own reading
 * of the date back). `weekday` (0 = Sunday), when given, must be the date's.
 */
function utcSeconds(year: number, month: number, day: number, hour: number, minute: number, second: number, offsetMinutes: number, weekday?: number): number {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second >= 60) return NaN;
  const midnight = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC maps years 0-99 to 1900-1999: set the full year explicitly
  midnight.setUTCFullYear(year, month - 1, day);
  if (midnight.getUTCFullYear() !== year || midnight.getUTCMonth() !== month - 1 || midnight.getUTCDate() !== day) return NaN;
  if (weekday !== undefined && midnight.getUTCDay() !== weekday) return NaN;
  return midnight.getTime() / 1000 + hour * 3600 + minute * 60 + second - offsetMinutes * 60;
}

/** "+0000", "-0430", "+05:30", "Z" as minutes east of UTC, or NaN. */
function offsetMinutes(text: string | undefined): number {
  if (text === undefined || text === 'Z' || text === 'z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(text);
  if (!m || Number(m[2]) > 23 || Number(m[3]) > 59) return NaN;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

const TWITTER_TIME = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-]\d{4}) (\d{4})$/;

/**
 * The Foursquare files' time ("Tue Apr 03 18:00:09 +0000 2012", the format of Twitter's API that
 * the TSMC 2014 and WWW'19 check-ins use) as epoch seconds, or NaN when the text is not one (the
 * weekday must be the date's).
 */
export function parseFoursquareTime(text: string): number {
  const m = TWITTER_TIME.exec(text.trim());
  if (!m) return NaN;
  return utcSeconds(Number(m[8]), MONTHS.indexOf(m[2]!) + 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), offsetMinutes(m[7]), WEEKDAYS.indexOf(m[1]!));
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO 8601 date or date-time as epoch seconds, or NaN: `2012-04-03`, `2012-04-03T18:00`,
 * `2012-04-03T18:00:09.5Z`, `2012-04-03 18:00:09+02:00`. Without an offset the time is read as
 * UTC (never the machine's time zone, so results do not depend on where they are computed).
 */
export function parseIsoTime(text: string): number {
  const m = ISO_DATE.exec(text.trim());
  if (!m) return NaN;
  const fraction = m[7] ? Number(m[7]) : 0;
  return utcSeconds(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), offsetMinutes(m[8])) + fraction;
}
