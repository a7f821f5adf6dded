package io.sluice.catalog.adbc;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.Set;

/**
 * {@code CREATE CATALOG wh WITH ('type' = 'adbc', 'driver' = 'postgresql', 'uri' = '...')}: the
 * schemas and tables of a database reached through an ADBC driver, as Flink databases and tables
 * (docs/connectors/adbc.md).
 */
public final class AdbcCatalogFactory implements CatalogFactory {
    static final ConfigOption<String> DRIVER = ConfigOptions.key("driver").stringType().noDefaultValue();
    static final ConfigOption<String> URI = ConfigOptions.key("uri").stringType().noDefaultValue();
    static final ConfigOption<String> USERNAME = ConfigOptions.key("username").stringType().noDefaultValue();
    static final ConfigOption<String> PASSWORD = ConfigOptions.key("password").stringType().noDefaultValue();
    static final ConfigOption<String> DEFAULT_DATABASE = ConfigOptions.key("default-database").stringType()
            .defaultValue("public").withDescription("The schema that is the catalog's default database.");

    @Override
    public String factoryIdentifier() {
        return "adbc";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(DRIVER, URI);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(USERNAME, PASSWORD, DEFAULT_DATABASE);
    }

    @Override
    public Catalog createCatalog(Context context) {
        FactoryUtil.CatalogFactoryHelper helper = FactoryUtil.createCatalogFactoryHelper(this, context);
        helper.validate();
        return new AdbcCatalog(context.getName(), helper.getOptions().get(DEFAULT_DATABASE),
                helper.getOptions().get(DRIVER), helper.getOptions().get(URI),
                helper.getOptions().getOptional(USERNAME).orElse(null), helper.getOptions().getOptional(PASSWORD).orElse(null));
    }
}
