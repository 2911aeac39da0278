# Sourced by the bench scripts: builds what the embedded server needs (once) and sets
#   payara_jar  the payara-embedded-web jar in the local Maven repository
#   flags       the JDK 17 flags embedded Payara needs
payara_version="$(sed -n 's:.*<payara.embedded.version>\(.*\)</payara.embedded.version>.*:\1:p' pom.xml)"
payara_jar="$HOME/.m2/repository/fish/payara/extras/payara-embedded-web/$payara_version/payara-embedded-web-$payara_version.jar"
if [ ! -f target/eureka.war ] || [ ! -f target/test-classes/payara-embedded/domain-1.xml ] || [ ! -f "$payara_jar" ]; then
  mvn -q -B -DskipTests package
fi
flags="--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/sun.net.www.protocol.jar=ALL-UNNAMED --add-opens=java.naming/javax.naming.spi=ALL-UNNAMED"
