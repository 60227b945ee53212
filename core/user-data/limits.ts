// The limits of what a user keeps, shared by the server and the forms (no imports: safe in any bundle).

export const LIST_NAME_MAX = 100;
export const LIST_DESCRIPTION_MAX = 1000;
export const MAX_LISTS_PER_USER = 200;
export const MAX_OBJECTS_PER_LIST = 10_000;
export const TAG_MAX = 40;
export const MAX_TAGS_PER_OBJECT = 20;
export const SAVED_NAME_MAX = 100;
export const MAX_SAVED_SEARCHES = 500;
