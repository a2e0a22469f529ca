/** Twilio's formats, as its description uses them (relative URIs, RFC 2822 times, E.164 or channel addresses, upper-case currencies). */
export const TWILIO_FORMATS: Record<string, RegExp | true> = {
  'date-time-rfc-2822': /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} \+0000$/,
  uri: /^($|\/|https?:\/\/)/, 'phone-number': /^(?:[a-z]+:)?\+[1-9]\d{7,14}$/, currency: /^[A-Z]{3}$/, 'http-method': /^(GET|POST|PUT|DELETE|HEAD|PATCH)$/,
  'iso-country-code': /^[A-Z]{2}$/, 'uri-map': true, 'phone-number-capabilities': true, endpoint: true, 'ice-server': true, twiml: true,
};
