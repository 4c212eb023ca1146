import type { CommandJson, CommandOptionJson } from './commandContext.js';

/**
 * A slash command builder with the same chained API as discord.js's SlashCommandBuilder (the
 * part the commands use), producing the same JSON. Why not the library's: loading it pulls in
 * discord-api-types, a validation library and lodash, about a quarter of the console's start-up
 * time, only to build some JSON. What Discord would refuse is checked where it matters: before
 * registration (src/discord/registration.ts, whose test covers every command) and by Discord.
 */
const OptionType = { subcommand: 1, string: 3, integer: 4, boolean: 5, user: 6, role: 8, number: 10, attachment: 11 } as const;

type Choice = { readonly name: string; readonly value: string | number };

/** One option (or subcommand) of a command. */
class SlashOption {
  protected readonly json: CommandOptionJson;

  constructor(type: number) {
    this.json = { type, name: '', description: '' };
  }

  setName(name: string): this {
    this.json.name = name;
    return this;
  }

  setDescription(description: string): this {
    this.json.description = description;
    return this;
  }

  setRequired(required = true): this {
    this.json.required = required;
    return this;
  }

  setAutocomplete(autocomplete = true): this {
    this.json.autocomplete = autocomplete;
    return this;
  }

  addChoices(...choices: readonly Choice[]): this {
    this.json.choices = [...(this.json.choices ?? []), ...choices.map((c) => ({ name: c.name, value: c.value }))];
    return this;
  }

  setMinValue(min: number): this {
    this.json.min_value = min;
    return this;
  }

  setMaxValue(max: number): this {
    this.json.max_value = max;
    return this;
  }

  setMinLength(min: number): this {
    this.json.min_length = min;
    return this;
  }

  setMaxLength(max: number): this {
    this.json.max_length = max;
    return this;
  }

  toJSON(): CommandOptionJson {
    return { ...this.json, ...(this.json.options ? { options: [...this.json.options] } : {}) };
  }
}

/** The options a command or a subcommand can hold. */
class WithOptions {
  protected readonly options: SlashOption[] = [];

  private add(type: number, build: (o: SlashOption) => SlashOption): this {
    this.options.push(build(new SlashOption(type)));
    return this;
  }

  addStringOption(build: (o: SlashOption) => SlashOption): this {
    return this.add(OptionType.string, build);
  }

  addIntegerOption(build: (o: SlashOption) => SlashOption): this {
    return this.add(OptionType.integer, build);
  }

  addNumberOption(build: (o: SlashOption) => SlashOption): this {
    return this.add(OptionType.number, build);
  }

  addBooleanOption(build: (o: SlashOption) => SlashOption): this {
    return this.add(OptionType.boolean, build);
  }

  addUserOption(build: (o: SlashOption) => SlashOption): this {
    return this.add(OptionType.user, build);
  }

  addRoleOption(build: (o: SlashOption) => SlashOption): this {
    return this.add(OptionType.role, build);
  }

  addAttachmentOption(build: (o: SlashOption) => SlashOption): this {
    return this.add(OptionType.attachment, build);
  }
}

/** A subcommand: a name, a description and its own options. */
export class SlashSubcommand extends WithOptions {
  name = '';
  private description = '';

  setName(name: string): this {
    this.name = name;
    return this;
  }

  setDescription(description: string): this {
    this.description = description;
    return this;
  }

  toJSON(): CommandOptionJson {
    return { type: OptionType.subcommand, name: this.name, description: this.description, options: this.options.map((o) => o.toJSON()) };
  }
}

/** A chat-input command, as `new SlashCommandBuilder()` in discord.js. */
export class SlashCommandBuilder extends WithOptions {
  name = '';
  private description = '';
  private contexts: number[] | undefined;
  private integrationTypes: number[] | undefined;
  private readonly subcommands: SlashSubcommand[] = [];

  setName(name: string): this {
    this.name = name;
    return this;
  }

  setDescription(description: string): this {
    this.description = description;
    return this;
  }

  /** Where Discord offers the command: 0 servers, 1 the bot's DM, 2 other private channels. */
  setContexts(...contexts: readonly (number | readonly number[])[]): this {
    this.contexts = contexts.flat();
    return this;
  }

  /** How the command is installed: 0 to a server, 1 to a user. */
  setIntegrationTypes(...types: readonly (number | readonly number[])[]): this {
    this.integrationTypes = types.flat();
    return this;
  }

  addSubcommand(build: (s: SlashSubcommand) => SlashSubcommand): this {
    this.subcommands.push(build(new SlashSubcommand()));
    return this;
  }

  toJSON(): CommandJson {
    return {
      type: 1,
      name: this.name,
      description: this.description,
      options: [...this.subcommands.map((s) => s.toJSON()), ...this.options.map((o) => o.toJSON())],
      ...(this.contexts ? { contexts: [...this.contexts] } : {}),
      ...(this.integrationTypes ? { integration_types: [...this.integrationTypes] } : {}),
    };
  }
}
