import { Schema } from "effect"

export class CampaignNotFound extends Schema.TaggedError<CampaignNotFound>()("CampaignNotFound", {
  campaign_id: Schema.Number
}) {
  override get message() {
    return `Campaign ${this.campaign_id} not found`
  }
}

export class ContactNotFound extends Schema.TaggedError<ContactNotFound>()("ContactNotFound", {
  contact_id: Schema.Number
}) {
  override get message() {
    return `Contact ${this.contact_id} not found`
  }
}

/** The action is not allowed from the campaign's current status (409). */
export class CampaignTransitionNotAllowed extends Schema.TaggedError<CampaignTransitionNotAllowed>()(
  "CampaignTransitionNotAllowed",
  { action: Schema.String, status: Schema.String }
) {
  override get message() {
    return `Cannot ${this.action} a campaign that is ${this.status}`
  }
}

/** Contacts change only while the campaign is `created` or `paused` (409). */
export class CampaignNotEditable extends Schema.TaggedError<CampaignNotEditable>()("CampaignNotEditable", {
  status: Schema.String
}) {
  override get message() {
    return `Contacts can be added or removed only while the campaign is created or paused; it is ${this.status}`
  }
}

/** Only a pending contact can be removed (409). */
export class ContactNotPending extends Schema.TaggedError<ContactNotPending>()("ContactNotPending", {
  contact_id: Schema.Number,
  status: Schema.String
}) {
  override get message() {
    return `Contact ${this.contact_id} is ${this.status}; only a pending contact can be removed`
  }
}

/** The campaign would hold more contacts than allowed (422 at `body.contacts`). */
export class TooManyContacts extends Schema.TaggedError<TooManyContacts>()("TooManyContacts", {
  limit: Schema.Int
}) {
  override get message() {
    return `A campaign holds at most ${this.limit} contacts`
  }
}

/** The CSV file cannot be imported at all: malformed, or without a `phone_number` column (422). */
export class InvalidContactFile extends Schema.TaggedError<InvalidContactFile>()("InvalidContactFile", {
  detail: Schema.String
}) {
  override get message() {
    return this.detail
  }
}
