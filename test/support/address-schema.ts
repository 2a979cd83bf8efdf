/** An inline object large enough that a module declares it once when a schema repeats it (emit/types-share.ts). */
export const ADDRESS = {
  type: "object",
  description: "A postal address.",
  properties: {
    street: { type: "string", description: "Street and house number, as written on an envelope." },
    city: { type: "string", description: "City or town." },
    postcode: { type: "string", description: "Postal code, in the country's own format." },
    country: { type: "string", description: "ISO 3166-1 alpha-2 country code.", pattern: "^[A-Z]{2}$" },
    region: { type: "string", description: "State, province or prefecture, where the country has them." },
  },
  required: ["street", "city", "country"],
  additionalProperties: false,
};
