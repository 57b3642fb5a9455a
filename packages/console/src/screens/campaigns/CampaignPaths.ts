/** A campaign's page, relative to the console. */
export const campaignPath = (campaignId: number): string => `campaigns/${campaignId}`

/** The page that creates a campaign. */
export const newCampaignPath = "campaigns/new"
