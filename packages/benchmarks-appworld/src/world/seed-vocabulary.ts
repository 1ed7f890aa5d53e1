/** Word lists of the synthetic world, written for this project. */

/** First names. */
export const firstNames = [
  "Ada",
  "Bruno",
  "Celia",
  "Dario",
  "Elena",
  "Farid",
  "Greta",
  "Hugo",
  "Ines",
  "Jonah",
  "Kira",
  "Lucas",
  "Maya",
  "Nils",
  "Olga",
  "Pavel",
  "Quinn",
  "Rosa",
  "Samir",
  "Tara",
  "Umar",
  "Vera",
  "Wes",
  "Yara",
  "Zane",
  "Aisha",
  "Boris",
  "Chloe",
  "Devin",
  "Esme",
] as const;

/** Last names. */
export const lastNames = [
  "Moreno",
  "Okafor",
  "Lindqvist",
  "Haddad",
  "Brennan",
  "Castillo",
  "Novak",
  "Ferreira",
  "Tanaka",
  "Ivanova",
  "Mensah",
  "Schultz",
  "Delgado",
  "Kowalski",
  "Rahman",
  "Abbott",
  "Nakamura",
  "Petrov",
  "Quiroga",
  "Sato",
] as const;

/** Email domains. */
export const domains = ["example.com", "mailbox.test", "inbox.example"] as const;

/** Words for song titles. */
export const songWords = [
  "Midnight",
  "River",
  "Paper",
  "Echo",
  "Summer",
  "Glass",
  "Northern",
  "Velvet",
  "Golden",
  "Silent",
  "Wild",
  "Neon",
  "Harbor",
  "Ember",
  "Blue",
  "Hollow",
  "Winter",
  "Crystal",
  "Lantern",
  "Orbit",
] as const;

/** Words completing song titles. */
export const songNouns = [
  "Lights",
  "Road",
  "Heart",
  "Dreams",
  "Rain",
  "Signal",
  "Garden",
  "Tide",
  "Skyline",
  "Letters",
] as const;

/** Artists. */
export const artists = [
  "The Quiet Foxes",
  "Mira Sol",
  "Low Orbit",
  "Juniper Hale",
  "Copper Kites",
  "Denzel Ray",
  "Static Bloom",
  "Ana Ferro",
] as const;

/** Note tags. */
export const noteTags = ["work", "travel", "recipes", "ideas", "health", "books", "finance"] as const;

/** Note titles by tag. */
export const noteTitles: Readonly<Record<(typeof noteTags)[number], readonly string[]>> = {
  work: ["Quarterly goals", "Meeting notes", "Project risks", "Onboarding checklist"],
  travel: ["Lisbon itinerary", "Packing list", "Visa documents", "Hotel options"],
  recipes: ["Lentil soup", "Banana bread", "Pad thai", "Green curry"],
  ideas: ["App idea", "Garden redesign", "Birthday surprise", "Podcast topics"],
  health: ["Running plan", "Doctor questions", "Sleep log", "Meal prep"],
  books: ["Reading list", "Quotes to keep", "Book club picks", "Library returns"],
  finance: ["Budget 2026", "Tax checklist", "Savings plan", "Subscriptions"],
};

/** To-do project names. */
export const projectNames = ["Home", "Work", "Errands", "Garden", "Fitness", "Wedding"] as const;

/** To-do task titles. */
export const taskTitles = [
  "Call the plumber",
  "Renew passport",
  "Buy groceries",
  "Book dentist",
  "Water the plants",
  "Pay rent",
  "Send invoice",
  "Clean the garage",
  "Order printer ink",
  "Return library books",
  "Plan team offsite",
  "Fix the bike",
  "Back up laptop",
  "Update resume",
  "Schedule car service",
  "Buy birthday gift",
] as const;

/** Payment descriptions. */
export const paymentDescriptions = [
  "Dinner",
  "Concert tickets",
  "Groceries",
  "Rent share",
  "Taxi",
  "Coffee",
  "Birthday gift",
  "Utilities",
] as const;

/** Email subjects. */
export const emailSubjects = [
  "Weekend plans",
  "Invoice attached",
  "Team lunch",
  "Flight confirmation",
  "Book recommendation",
  "Quick question",
  "Photos from the trip",
  "Newsletter",
  "Meeting moved",
  "Thank you",
] as const;

/** Alarm labels. */
export const alarmLabels = [
  "Wake up",
  "Gym",
  "Medication",
  "Stand-up meeting",
  "Pick up kids",
  "Bedtime",
  "Laundry",
] as const;

/** Directories of the file system. */
export const directories = ["/documents", "/photos", "/downloads", "/documents/taxes", "/projects"] as const;
